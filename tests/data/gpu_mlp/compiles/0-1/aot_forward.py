class GraphModule(torch.nn.Module):
    def forward(
        self,
        primals_1: "f32[128, 64][64, 1]cuda:0",  # PlainAOTInput(idx=0)
        primals_2: "f32[128][1]cuda:0",  # PlainAOTInput(idx=1)
        primals_3: "f32[8, 64][64, 1]cuda:0",  # PlainAOTInput(idx=2)
        primals_4: "f32[10, 128][128, 1]cuda:0",  # PlainAOTInput(idx=3)
        primals_5: "f32[10][1]cuda:0",  # PlainAOTInput(idx=4)
    ):
        # File: samples/mlp.py:18 in forward, code: return self.fc2(torch.relu(self.fc1(x)))
        permute: "f32[64, 128][1, 64]cuda:0" = torch.ops.aten.permute.default(primals_1, [1, 0]);  primals_1 = None
        addmm: "f32[8, 128][128, 1]cuda:0" = torch.ops.aten.addmm.default(primals_2, primals_3, permute);  primals_2 = permute = None
        relu: "f32[8, 128][128, 1]cuda:0" = torch.ops.aten.relu.default(addmm);  addmm = None
        permute_1: "f32[128, 10][1, 128]cuda:0" = torch.ops.aten.permute.default(primals_4, [1, 0])
        addmm_1: "f32[8, 10][10, 1]cuda:0" = torch.ops.aten.addmm.default(primals_5, relu, permute_1);  primals_5 = permute_1 = None
        return (
            addmm_1,  # PlainAOTOutput(idx=0)
            primals_3,  # SavedForBackwardsAOTOutput(idx=0)
            primals_4,  # SavedForBackwardsAOTOutput(idx=1)
            relu,  # SavedForBackwardsAOTOutput(idx=2)
        )
