class GraphModule(torch.nn.Module):
    def forward(self, primals_1: "f32[128, 64][64, 1]cuda:0", primals_2: "f32[128][1]cuda:0", primals_3: "f32[8, 64][64, 1]cuda:0", primals_4: "f32[10, 128][128, 1]cuda:0", primals_5: "f32[10][1]cuda:0"):
        # File: samples/mlp.py:18 in forward, code: return self.fc2(torch.relu(self.fc1(x)))
        permute: "f32[64, 128][1, 64]cuda:0" = torch.ops.aten.permute.default(primals_1, [1, 0]);  primals_1 = None
        mm_default: "f32[8, 128][128, 1]cuda:0" = torch.ops.aten.mm.default(primals_3, permute);  permute = None
        add_tensor: "f32[8, 128][128, 1]cuda:0" = torch.ops.aten.add.Tensor(primals_2, mm_default);  primals_2 = mm_default = None
        relu: "f32[8, 128][128, 1]cuda:0" = torch.ops.aten.relu.default(add_tensor);  add_tensor = None
        permute_1: "f32[128, 10][1, 128]cuda:0" = torch.ops.aten.permute.default(primals_4, [1, 0])
        addmm_1: "f32[8, 10][10, 1]cuda:0" = torch.ops.aten.addmm.default(primals_5, relu, permute_1);  primals_5 = permute_1 = None
        return (addmm_1, primals_3, primals_4, relu)
