class <lambda>(torch.nn.Module):
    def forward(
        self,
        arg0_1: "f32[128, 64][64, 1]cuda:0",  # PlainAOTInput(idx=0)
        arg1_1: "f32[128][1]cuda:0",  # PlainAOTInput(idx=1)
        arg2_1: "f32[8, 64][64, 1]cuda:0",  # PlainAOTInput(idx=2)
        arg3_1: "f32[10, 128][128, 1]cuda:0",  # PlainAOTInput(idx=3)
        arg4_1: "f32[10][1]cuda:0",  # PlainAOTInput(idx=4)
    ):
        # File: samples/mlp.py:18 in forward, code: return self.fc2(torch.relu(self.fc1(x)))
        permute: "f32[64, 128][1, 64]cuda:0" = torch.ops.aten.permute.default(arg0_1, [1, 0]);  arg0_1 = None
        addmm: "f32[8, 128][128, 1]cuda:0" = torch.ops.aten.addmm.default(arg1_1, arg2_1, permute);  arg1_1 = arg2_1 = permute = None
        relu: "f32[8, 128][128, 1]cuda:0" = torch.ops.aten.relu.default(addmm);  addmm = None
        permute_1: "f32[128, 10][1, 128]cuda:0" = torch.ops.aten.permute.default(arg3_1, [1, 0]);  arg3_1 = None
        addmm_1: "f32[8, 10][10, 1]cuda:0" = torch.ops.aten.addmm.default(arg4_1, relu, permute_1);  arg4_1 = relu = permute_1 = None
        return (
            addmm_1,  # PlainAOTOutput(idx=0)
        )
