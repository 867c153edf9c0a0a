class GraphModule(torch.nn.Module):
    def forward(
        self,
        primals_1: "f32[16, 512][512, 1]cuda:0",  # PlainAOTInput(idx=0)
        primals_2: "f32[512, 512][512, 1]cuda:0",  # PlainAOTInput(idx=1)
        primals_3: "f32[512][1]cuda:0",  # PlainAOTInput(idx=2)
        primals_4: "f32[8, 512][512, 1]cuda:0",  # PlainAOTInput(idx=3)
        primals_5: "f32[8][1]cuda:0",  # PlainAOTInput(idx=4)
    ):
        # File: /opt/torch/.venv/lib/python3.12/site-packages/torch/nn/parallel/distributed.py:1699 in forward, code: else self._run_ddp_forward(*inputs, **kwargs)
        permute: "f32[512, 512][1, 512]cuda:0" = torch.ops.aten.permute.default(primals_2, [1, 0])
        addmm: "f32[16, 512][512, 1]cuda:0" = torch.ops.aten.addmm.default(primals_3, primals_1, permute);  primals_3 = permute = None
        relu: "f32[16, 512][512, 1]cuda:0" = torch.ops.aten.relu.default(addmm);  addmm = None
        permute_1: "f32[512, 8][1, 512]cuda:0" = torch.ops.aten.permute.default(primals_4, [1, 0])
        addmm_1: "f32[16, 8][8, 1]cuda:0" = torch.ops.aten.addmm.default(primals_5, relu, permute_1);  primals_5 = permute_1 = None
        return (
            addmm_1,  # PlainAOTOutput(idx=0)
            primals_1,  # SavedForBackwardsAOTOutput(idx=0)
            primals_2,  # SavedForBackwardsAOTOutput(idx=1)
            primals_4,  # SavedForBackwardsAOTOutput(idx=2)
            relu,  # SavedForBackwardsAOTOutput(idx=3)
        )
