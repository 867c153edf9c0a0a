class <lambda>(torch.nn.Module):
    def forward(
        self,
        arg0_1: "Sym(s37)",  # PlainAOTInput(idx=0)
        arg1_1: "Sym(s25)",  # PlainAOTInput(idx=1)
        arg2_1: "Sym(s69)",  # PlainAOTInput(idx=2)
        arg3_1: "f32[s37, s25, s69][s25*s69, s69, 1]cuda:0",  # PlainAOTInput(idx=3)
    ):
        # File: samples/autotune.py:21 in attention_scores, code: return (q @ k.transpose(-1, -2) * 0.125).softmax(-1)  # 1/sqrt(64), a constant: no symbolic float
        permute: "f32[s37, s69, s25][s25*s69, 1, s69]cuda:0" = torch.ops.aten.permute.default(arg3_1, [0, 2, 1])
        expand: "f32[s37, s25, s69][s25*s69, s69, 1]cuda:0" = torch.ops.aten.expand.default(arg3_1, [arg0_1, arg1_1, arg2_1]);  arg3_1 = None
        view: "f32[s37, s25, s69][s25*s69, s69, 1]cuda:0" = torch.ops.aten.view.default(expand, [arg0_1, arg1_1, arg2_1]);  expand = None
        expand_1: "f32[s37, s69, s25][s25*s69, 1, s69]cuda:0" = torch.ops.aten.expand.default(permute, [arg0_1, arg2_1, arg1_1]);  permute = None
        view_1: "f32[s37, s69, s25][s25*s69, 1, s69]cuda:0" = torch.ops.aten.view.default(expand_1, [arg0_1, arg2_1, arg1_1]);  expand_1 = arg2_1 = None
        bmm: "f32[s37, s25, s25][s25**2, s25, 1]cuda:0" = torch.ops.aten.bmm.default(view, view_1);  view = view_1 = None
        view_2: "f32[s37, s25, s25][s25**2, s25, 1]cuda:0" = torch.ops.aten.view.default(bmm, [arg0_1, arg1_1, arg1_1]);  bmm = arg0_1 = arg1_1 = None
        mul_36: "f32[s37, s25, s25][s25**2, s25, 1]cuda:0" = torch.ops.aten.mul.Tensor(view_2, 0.125);  view_2 = None
        amax: "f32[s37, s25, 1][s25, 1, 1]cuda:0" = torch.ops.aten.amax.default(mul_36, [-1], True)
        sub_24: "f32[s37, s25, s25][s25**2, s25, 1]cuda:0" = torch.ops.aten.sub.Tensor(mul_36, amax);  mul_36 = amax = None
        exp: "f32[s37, s25, s25][s25**2, s25, 1]cuda:0" = torch.ops.aten.exp.default(sub_24);  sub_24 = None
        sum_1: "f32[s37, s25, 1][s25, 1, 1]cuda:0" = torch.ops.aten.sum.dim_IntList(exp, [-1], True)
        div: "f32[s37, s25, s25][s25**2, s25, 1]cuda:0" = torch.ops.aten.div.Tensor(exp, sum_1);  exp = sum_1 = None
        return (
            div,  # PlainAOTOutput(idx=0)
        )
