class <lambda>(torch.nn.Module):
    def forward(self, arg0_1: "f32[32, 16][16, 1]cuda:0", arg1_1: "f32[32][1]cuda:0", arg2_1: "f32[8, 16][16, 1]cuda:0", arg3_1: "f32[4, 32][32, 1]cuda:0", arg4_1: "f32[4][1]cuda:0"):
        # File: /work/main/samples/relu_bug.py:26 in forward, code: h = self.fc1(x) * 0.5
        permute: "f32[16, 32][1, 16]cuda:0" = torch.ops.aten.permute.default(arg0_1, [1, 0]);  arg0_1 = None
        mm_default: "f32[8, 32][32, 1]cuda:0" = torch.ops.aten.mm.default(arg2_1, permute);  arg2_1 = permute = None
        add_tensor: "f32[8, 32][32, 1]cuda:0" = torch.ops.aten.add.Tensor(arg1_1, mm_default);  arg1_1 = mm_default = None
        mul: "f32[8, 32][32, 1]cuda:0" = torch.ops.aten.mul.Tensor(add_tensor, 0.5);  add_tensor = None

        # File: /work/main/samples/relu_bug.py:27 in forward, code: h = torch.relu(h)
        relu: "f32[8, 32][32, 1]cuda:0" = torch.ops.aten.relu.default(mul);  mul = None

        # File: /work/main/samples/relu_bug.py:28 in forward, code: return self.fc2(h)
        permute_1: "f32[32, 4][1, 32]cuda:0" = torch.ops.aten.permute.default(arg3_1, [1, 0]);  arg3_1 = None
        addmm_1: "f32[8, 4][4, 1]cuda:0" = torch.ops.aten.addmm.default(arg4_1, relu, permute_1);  arg4_1 = relu = permute_1 = None
        return (addmm_1,)
