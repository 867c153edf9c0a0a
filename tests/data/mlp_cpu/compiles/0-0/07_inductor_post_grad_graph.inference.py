class <lambda>(torch.nn.Module):
    def forward(self, arg0_1: "f32[128, 64][64, 1]cpu", arg1_1: "f32[128][1]cpu", arg2_1: "f32[8, 64][64, 1]cpu", arg3_1: "f32[10, 128][128, 1]cpu", arg4_1: "f32[10][1]cpu"):
        # File: samples/mlp.py:18 in forward, code: return self.fc2(torch.relu(self.fc1(x)))
        permute: "f32[64, 128][1, 64]cpu" = torch.ops.aten.permute.default(arg0_1, [1, 0]);  arg0_1 = None
        addmm: "f32[8, 128][128, 1]cpu" = torch.ops.aten.addmm.default(arg1_1, arg2_1, permute);  arg1_1 = arg2_1 = permute = None
        relu: "f32[8, 128][128, 1]cpu" = torch.ops.aten.relu.default(addmm);  addmm = None
        permute_1: "f32[128, 10][1, 128]cpu" = torch.ops.aten.permute.default(arg3_1, [1, 0]);  arg3_1 = None
        addmm_1: "f32[8, 10][10, 1]cpu" = torch.ops.aten.addmm.default(arg4_1, relu, permute_1);  arg4_1 = relu = permute_1 = None
        return (addmm_1,)
