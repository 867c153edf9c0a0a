class GraphModule(torch.nn.Module):
    def forward(
        self,
        primals_1: "f32[16, 512][512, 1]cuda:0",  # PlainAOTInput(idx=0)
        primals_2: "f32[512, 512][512, 1]cuda:0",  # PlainAOTInput(idx=1)
        primals_4: "f32[8, 512][512, 1]cuda:0",  # PlainAOTInput(idx=3)
        relu: "f32[16, 512][512, 1]cuda:0",
        tangents_1: "f32[16, 8][8, 1]cuda:0",  # TangentAOTInput(output=PlainAOTOutput(idx=0))
    ):
        # File: /opt/torch/.venv/lib/python3.12/site-packages/torch/nn/parallel/distributed.py:1699 in forward, code: else self._run_ddp_forward(*inputs, **kwargs)
        permute_1: "f32[512, 8][1, 512]cuda:0" = torch.ops.aten.permute.default(primals_4, [1, 0]);  primals_4 = None
        permute_2: "f32[8, 512][512, 1]cuda:0" = torch.ops.aten.permute.default(permute_1, [1, 0]);  permute_1 = None
        mm: "f32[16, 512][512, 1]cuda:0" = torch.ops.aten.mm.default(tangents_1, permute_2);  permute_2 = None
        permute_3: "f32[8, 16][1, 8]cuda:0" = torch.ops.aten.permute.default(tangents_1, [1, 0])
        mm_1: "f32[8, 512][512, 1]cuda:0" = torch.ops.aten.mm.default(permute_3, relu);  permute_3 = None
        sum_1: "f32[1, 8][8, 1]cuda:0" = torch.ops.aten.sum.dim_IntList(tangents_1, [0], True);  tangents_1 = None
        view: "f32[8][1]cuda:0" = torch.ops.aten.view.default(sum_1, [8]);  sum_1 = None
        le: "b8[16, 512][512, 1]cuda:0" = torch.ops.aten.le.Scalar(relu, 0);  relu = None
        full_default: "f32[][]cuda:0" = torch.ops.aten.full.default([], 0.0, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0), pin_memory = False)
        where: "f32[16, 512][512, 1]cuda:0" = torch.ops.aten.where.self(le, full_default, mm);  le = full_default = mm = None
        permute: "f32[512, 512][1, 512]cuda:0" = torch.ops.aten.permute.default(primals_2, [1, 0]);  primals_2 = None
        permute_6: "f32[512, 512][512, 1]cuda:0" = torch.ops.aten.permute.default(permute, [1, 0]);  permute = None
        mm_2: "f32[16, 512][512, 1]cuda:0" = torch.ops.aten.mm.default(where, permute_6);  permute_6 = None
        permute_7: "f32[512, 16][1, 512]cuda:0" = torch.ops.aten.permute.default(where, [1, 0])
        mm_3: "f32[512, 512][512, 1]cuda:0" = torch.ops.aten.mm.default(permute_7, primals_1);  permute_7 = primals_1 = None
        sum_2: "f32[1, 512][512, 1]cuda:0" = torch.ops.aten.sum.dim_IntList(where, [0], True);  where = None
        view_1: "f32[512][1]cuda:0" = torch.ops.aten.view.default(sum_2, [512]);  sum_2 = None
        return (
            mm_2,  # GradAOTOutput(grad_of=PlainAOTInput(idx=0))
            mm_3,  # GradAOTOutput(grad_of=PlainAOTInput(idx=1))
            view_1,  # GradAOTOutput(grad_of=PlainAOTInput(idx=2))
            mm_1,  # GradAOTOutput(grad_of=PlainAOTInput(idx=3))
            view,  # GradAOTOutput(grad_of=PlainAOTInput(idx=4))
        )
