class inner_f(torch.nn.Module):
    def forward(
        self,
        primals,
        tangents,
    ):
        primals_1: "f32[16, 512][512, 1]cuda:0"  # PlainAOTInput(idx=0)
        primals_2: "f32[512, 512][512, 1]cuda:0"  # PlainAOTInput(idx=1)
        primals_3: "f32[512][1]cuda:0"  # PlainAOTInput(idx=2)
        tangents_1: "f32[16, 512][512, 1]cuda:0"  # TangentAOTInput(output=PlainAOTOutput(idx=0))
        primals_1, primals_2, primals_3, tangents_1, = fx_pytree.tree_flatten_spec([primals, tangents], self._in_spec)
        # File: /opt/torch/.venv/lib/python3.12/site-packages/torch/nn/parallel/distributed.py:1699 in forward, code: else self._run_ddp_forward(*inputs, **kwargs)
        permute: "f32[512, 512][1, 512]cuda:0" = torch.ops.aten.permute.default(primals_2, [1, 0]);  primals_2 = None
        addmm: "f32[16, 512][512, 1]cuda:0" = torch.ops.aten.addmm.default(primals_3, primals_1, permute);  primals_3 = permute = None
        relu: "f32[16, 512][512, 1]cuda:0" = torch.ops.aten.relu.default(addmm);  addmm = None
        alias: "f32[16, 512][512, 1]cuda:0" = torch.ops.aten.alias.default(relu)
        alias_1: "f32[16, 512][512, 1]cuda:0" = torch.ops.aten.alias.default(alias);  alias = None
        le: "b8[16, 512][512, 1]cuda:0" = torch.ops.aten.le.Scalar(alias_1, 0);  alias_1 = None
        scalar_tensor: "f32[][]cuda:0" = torch.ops.aten.scalar_tensor.default(0, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0))
        where: "f32[16, 512][512, 1]cuda:0" = torch.ops.aten.where.self(le, scalar_tensor, tangents_1);  le = scalar_tensor = tangents_1 = None
        permute_1: "f32[512, 16][1, 512]cuda:0" = torch.ops.aten.permute.default(where, [1, 0])
        mm: "f32[512, 512][512, 1]cuda:0" = torch.ops.aten.mm.default(permute_1, primals_1);  permute_1 = primals_1 = None
        permute_2: "f32[512, 512][1, 512]cuda:0" = torch.ops.aten.permute.default(mm, [1, 0]);  mm = None
        sum_1: "f32[1, 512][512, 1]cuda:0" = torch.ops.aten.sum.dim_IntList(where, [0], True);  where = None
        view: "f32[512][1]cuda:0" = torch.ops.aten.view.default(sum_1, [512]);  sum_1 = None
        permute_3: "f32[512, 512][512, 1]cuda:0" = torch.ops.aten.permute.default(permute_2, [1, 0]);  permute_2 = None
        return pytree.tree_unflatten([
            relu,  # PlainAOTOutput(idx=0)
            None,  # None
            permute_3,  # GradAOTOutput(grad_of=PlainAOTInput(idx=1))
            view,  # GradAOTOutput(grad_of=PlainAOTInput(idx=2))
        ], self._out_spec)
