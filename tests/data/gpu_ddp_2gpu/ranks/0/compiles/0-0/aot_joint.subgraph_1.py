class inner_f(torch.nn.Module):
    def forward(
        self,
        primals,
        tangents,
    ):
        primals_1: "f32[16, 512][512, 1]cuda:0"  # PlainAOTInput(idx=0)
        primals_2: "f32[512, 512][512, 1]cuda:0"  # PlainAOTInput(idx=1)
        primals_3: "f32[512][1]cuda:0"  # PlainAOTInput(idx=2)
        primals_4: "f32[8, 512][512, 1]cuda:0"  # PlainAOTInput(idx=3)
        primals_5: "f32[8][1]cuda:0"  # PlainAOTInput(idx=4)
        tangents_1: "f32[16, 8][8, 1]cuda:0"  # TangentAOTInput(output=PlainAOTOutput(idx=0))
        primals_1, primals_2, primals_3, primals_4, primals_5, tangents_1, = fx_pytree.tree_flatten_spec([primals, tangents], self._in_spec)
        # File: /opt/torch/.venv/lib/python3.12/site-packages/torch/nn/parallel/distributed.py:1699 in forward, code: else self._run_ddp_forward(*inputs, **kwargs)
        permute: "f32[512, 512][1, 512]cuda:0" = torch.ops.aten.permute.default(primals_2, [1, 0]);  primals_2 = None
        addmm: "f32[16, 512][512, 1]cuda:0" = torch.ops.aten.addmm.default(primals_3, primals_1, permute);  primals_3 = None
        relu: "f32[16, 512][512, 1]cuda:0" = torch.ops.aten.relu.default(addmm);  addmm = None
        alias: "f32[16, 512][512, 1]cuda:0" = torch.ops.aten.alias.default(relu)
        permute_1: "f32[512, 8][1, 512]cuda:0" = torch.ops.aten.permute.default(primals_4, [1, 0]);  primals_4 = None
        addmm_1: "f32[16, 8][8, 1]cuda:0" = torch.ops.aten.addmm.default(primals_5, relu, permute_1);  primals_5 = None
        permute_2: "f32[8, 512][512, 1]cuda:0" = torch.ops.aten.permute.default(permute_1, [1, 0]);  permute_1 = None
        mm: "f32[16, 512][512, 1]cuda:0" = torch.ops.aten.mm.default(tangents_1, permute_2);  permute_2 = None
        permute_3: "f32[8, 16][1, 8]cuda:0" = torch.ops.aten.permute.default(tangents_1, [1, 0])
        mm_1: "f32[8, 512][512, 1]cuda:0" = torch.ops.aten.mm.default(permute_3, relu);  permute_3 = relu = None
        permute_4: "f32[512, 8][1, 512]cuda:0" = torch.ops.aten.permute.default(mm_1, [1, 0]);  mm_1 = None
        sum_1: "f32[1, 8][8, 1]cuda:0" = torch.ops.aten.sum.dim_IntList(tangents_1, [0], True);  tangents_1 = None
        view: "f32[8][1]cuda:0" = torch.ops.aten.view.default(sum_1, [8]);  sum_1 = None
        permute_5: "f32[8, 512][512, 1]cuda:0" = torch.ops.aten.permute.default(permute_4, [1, 0]);  permute_4 = None
        alias_1: "f32[16, 512][512, 1]cuda:0" = torch.ops.aten.alias.default(alias);  alias = None
        le: "b8[16, 512][512, 1]cuda:0" = torch.ops.aten.le.Scalar(alias_1, 0);  alias_1 = None
        scalar_tensor: "f32[][]cuda:0" = torch.ops.aten.scalar_tensor.default(0, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0))
        where: "f32[16, 512][512, 1]cuda:0" = torch.ops.aten.where.self(le, scalar_tensor, mm);  le = scalar_tensor = mm = None
        permute_6: "f32[512, 512][512, 1]cuda:0" = torch.ops.aten.permute.default(permute, [1, 0]);  permute = None
        mm_2: "f32[16, 512][512, 1]cuda:0" = torch.ops.aten.mm.default(where, permute_6);  permute_6 = None
        permute_7: "f32[512, 16][1, 512]cuda:0" = torch.ops.aten.permute.default(where, [1, 0])
        mm_3: "f32[512, 512][512, 1]cuda:0" = torch.ops.aten.mm.default(permute_7, primals_1);  permute_7 = primals_1 = None
        permute_8: "f32[512, 512][1, 512]cuda:0" = torch.ops.aten.permute.default(mm_3, [1, 0]);  mm_3 = None
        sum_2: "f32[1, 512][512, 1]cuda:0" = torch.ops.aten.sum.dim_IntList(where, [0], True);  where = None
        view_1: "f32[512][1]cuda:0" = torch.ops.aten.view.default(sum_2, [512]);  sum_2 = None
        permute_9: "f32[512, 512][512, 1]cuda:0" = torch.ops.aten.permute.default(permute_8, [1, 0]);  permute_8 = None
        return pytree.tree_unflatten([
            addmm_1,  # PlainAOTOutput(idx=0)
            mm_2,  # GradAOTOutput(grad_of=PlainAOTInput(idx=0))
            permute_9,  # GradAOTOutput(grad_of=PlainAOTInput(idx=1))
            view_1,  # GradAOTOutput(grad_of=PlainAOTInput(idx=2))
            permute_5,  # GradAOTOutput(grad_of=PlainAOTInput(idx=3))
            view,  # GradAOTOutput(grad_of=PlainAOTInput(idx=4))
        ], self._out_spec)
