class GraphModule(torch.nn.Module):
    def forward(
        self,
        primals_1: "f32[16, 512][512, 1]cuda:1",  # PlainAOTInput(idx=0)
        le: "b8[16, 512][512, 1]cuda:1",
        tangents_1: "f32[16, 512][512, 1]cuda:1",  # TangentAOTInput(output=PlainAOTOutput(idx=0))
    ):
        # File: /opt/torch/.venv/lib/python3.12/site-packages/torch/nn/parallel/distributed.py:1699 in forward, code: else self._run_ddp_forward(*inputs, **kwargs)
        full_default: "f32[][]cuda:1" = torch.ops.aten.full.default([], 0.0, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=1), pin_memory = False)
        where: "f32[16, 512][512, 1]cuda:1" = torch.ops.aten.where.self(le, full_default, tangents_1);  le = full_default = tangents_1 = None
        permute_1: "f32[512, 16][1, 512]cuda:1" = torch.ops.aten.permute.default(where, [1, 0])
        mm: "f32[512, 512][512, 1]cuda:1" = torch.ops.aten.mm.default(permute_1, primals_1);  permute_1 = primals_1 = None
        sum_1: "f32[1, 512][512, 1]cuda:1" = torch.ops.aten.sum.dim_IntList(where, [0], True);  where = None
        view: "f32[512][1]cuda:1" = torch.ops.aten.view.default(sum_1, [512]);  sum_1 = None
        return (
            None,  # None
            mm,  # GradAOTOutput(grad_of=PlainAOTInput(idx=1))
            view,  # GradAOTOutput(grad_of=PlainAOTInput(idx=2))
        )
