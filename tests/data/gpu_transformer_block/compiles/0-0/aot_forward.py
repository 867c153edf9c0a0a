class GraphModule(torch.nn.Module):
    def forward(
        self,
        primals_1: "f32[2, 16, 64][1024, 64, 1]cuda:0",  # PlainAOTInput(idx=0)
        primals_2: "f32[64][1]cuda:0",  # PlainAOTInput(idx=1)
        primals_3: "f32[64][1]cuda:0",  # PlainAOTInput(idx=2)
        primals_4: "f32[192, 64][64, 1]cuda:0",  # PlainAOTInput(idx=3)
        primals_5: "f32[192][1]cuda:0",  # PlainAOTInput(idx=4)
        primals_6: "f32[64, 64][64, 1]cuda:0",  # PlainAOTInput(idx=5)
        primals_7: "f32[64][1]cuda:0",  # PlainAOTInput(idx=6)
        primals_8: "f32[64][1]cuda:0",  # PlainAOTInput(idx=7)
        primals_9: "f32[64][1]cuda:0",  # PlainAOTInput(idx=8)
        primals_10: "f32[256, 64][64, 1]cuda:0",  # PlainAOTInput(idx=9)
        primals_11: "f32[256][1]cuda:0",  # PlainAOTInput(idx=10)
        primals_12: "f32[64, 256][256, 1]cuda:0",  # PlainAOTInput(idx=11)
        primals_13: "f32[64][1]cuda:0",  # PlainAOTInput(idx=12)
    ):
        # File: samples/transformer_block.py:19 in forward, code: q, k, v = self.qkv(self.ln1(x)).split(d, dim=-1)
        var_mean = torch.ops.aten.var_mean.correction(primals_1, [2], correction = 0, keepdim = True)
        getitem: "f32[2, 16, 1][16, 1, 1]cuda:0" = var_mean[0]
        getitem_1: "f32[2, 16, 1][16, 1, 1]cuda:0" = var_mean[1];  var_mean = None
        add: "f32[2, 16, 1][16, 1, 1]cuda:0" = torch.ops.aten.add.Tensor(getitem, 1e-05);  getitem = None
        rsqrt: "f32[2, 16, 1][16, 1, 1]cuda:0" = torch.ops.aten.rsqrt.default(add);  add = None
        sub: "f32[2, 16, 64][1024, 64, 1]cuda:0" = torch.ops.aten.sub.Tensor(primals_1, getitem_1)
        mul: "f32[2, 16, 64][1024, 64, 1]cuda:0" = torch.ops.aten.mul.Tensor(sub, rsqrt);  sub = None
        mul_1: "f32[2, 16, 64][1024, 64, 1]cuda:0" = torch.ops.aten.mul.Tensor(mul, primals_2);  mul = primals_2 = None
        add_1: "f32[2, 16, 64][1024, 64, 1]cuda:0" = torch.ops.aten.add.Tensor(mul_1, primals_3);  mul_1 = primals_3 = None
        view: "f32[32, 64][64, 1]cuda:0" = torch.ops.aten.view.default(add_1, [32, 64]);  add_1 = None
        permute: "f32[64, 192][1, 64]cuda:0" = torch.ops.aten.permute.default(primals_4, [1, 0])
        addmm: "f32[32, 192][192, 1]cuda:0" = torch.ops.aten.addmm.default(primals_5, view, permute);  primals_5 = permute = None
        view_1: "f32[2, 16, 192][3072, 192, 1]cuda:0" = torch.ops.aten.view.default(addmm, [2, 16, 192]);  addmm = None
        split = torch.ops.aten.split.Tensor(view_1, 64, -1);  view_1 = None
        getitem_2: "f32[2, 16, 64][3072, 192, 1]cuda:0" = split[0]
        getitem_3: "f32[2, 16, 64][3072, 192, 1]cuda:0" = split[1]
        getitem_4: "f32[2, 16, 64][3072, 192, 1]cuda:0" = split[2];  split = None

        # File: samples/transformer_block.py:20 in <genexpr>, code: q, k, v = (z.view(b, t, self.heads, d // self.heads).transpose(1, 2) for z in (q, k, v))
        view_2: "f32[2, 16, 4, 16][3072, 192, 16, 1]cuda:0" = torch.ops.aten.view.default(getitem_2, [2, 16, 4, 16]);  getitem_2 = None
        permute_1: "f32[2, 4, 16, 16][3072, 16, 192, 1]cuda:0" = torch.ops.aten.permute.default(view_2, [0, 2, 1, 3]);  view_2 = None
        view_3: "f32[2, 16, 4, 16][3072, 192, 16, 1]cuda:0" = torch.ops.aten.view.default(getitem_3, [2, 16, 4, 16]);  getitem_3 = None
        permute_2: "f32[2, 4, 16, 16][3072, 16, 192, 1]cuda:0" = torch.ops.aten.permute.default(view_3, [0, 2, 1, 3]);  view_3 = None
        view_4: "f32[2, 16, 4, 16][3072, 192, 16, 1]cuda:0" = torch.ops.aten.view.default(getitem_4, [2, 16, 4, 16]);  getitem_4 = None
        permute_3: "f32[2, 4, 16, 16][3072, 16, 192, 1]cuda:0" = torch.ops.aten.permute.default(view_4, [0, 2, 1, 3]);  view_4 = None

        # File: samples/transformer_block.py:21 in forward, code: att = (q @ k.transpose(-2, -1)) / (d // self.heads) ** 0.5
        permute_4: "f32[2, 4, 16, 16][3072, 16, 1, 192]cuda:0" = torch.ops.aten.permute.default(permute_2, [0, 1, 3, 2]);  permute_2 = None
        expand: "f32[2, 4, 16, 16][3072, 16, 192, 1]cuda:0" = torch.ops.aten.expand.default(permute_1, [2, 4, 16, 16]);  permute_1 = None
        clone: "f32[2, 4, 16, 16][1024, 256, 16, 1]cuda:0" = torch.ops.aten.clone.default(expand, memory_format = torch.contiguous_format);  expand = None
        view_5: "f32[8, 16, 16][256, 16, 1]cuda:0" = torch.ops.aten.view.default(clone, [8, 16, 16]);  clone = None
        expand_1: "f32[2, 4, 16, 16][3072, 16, 1, 192]cuda:0" = torch.ops.aten.expand.default(permute_4, [2, 4, 16, 16]);  permute_4 = None
        clone_1: "f32[2, 4, 16, 16][1024, 256, 16, 1]cuda:0" = torch.ops.aten.clone.default(expand_1, memory_format = torch.contiguous_format);  expand_1 = None
        view_6: "f32[8, 16, 16][256, 16, 1]cuda:0" = torch.ops.aten.view.default(clone_1, [8, 16, 16]);  clone_1 = None
        bmm: "f32[8, 16, 16][256, 16, 1]cuda:0" = torch.ops.aten.bmm.default(view_5, view_6)
        view_7: "f32[2, 4, 16, 16][1024, 256, 16, 1]cuda:0" = torch.ops.aten.view.default(bmm, [2, 4, 16, 16]);  bmm = None
        div: "f32[2, 4, 16, 16][1024, 256, 16, 1]cuda:0" = torch.ops.aten.div.Tensor(view_7, 4.0);  view_7 = None

        # File: samples/transformer_block.py:22 in forward, code: att = att.masked_fill(torch.ones(t, t, device=x.device).triu(1).bool(), float("-inf")).softmax(-1)
        full_default: "f32[16, 16][16, 1]cuda:0" = torch.ops.aten.full.default([16, 16], 1, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0), pin_memory = False)
        iota: "i64[16][1]cuda:0" = torch.ops.prims.iota.default(16, start = 0, step = 1, dtype = torch.int64, device = device(type='cuda', index=0), requires_grad = False)
        unsqueeze: "i64[1, 16][16, 1]cuda:0" = torch.ops.aten.unsqueeze.default(iota, -2)
        unsqueeze_1: "i64[16, 1][1, 1]cuda:0" = torch.ops.aten.unsqueeze.default(iota, -1);  iota = None
        sub_1: "i64[16, 16][16, 1]cuda:0" = torch.ops.aten.sub.Tensor(unsqueeze, unsqueeze_1);  unsqueeze = unsqueeze_1 = None
        ge: "b8[16, 16][16, 1]cuda:0" = torch.ops.aten.ge.Scalar(sub_1, 1);  sub_1 = None
        full_default_1: "f32[][]cuda:0" = torch.ops.aten.full.default([], 0.0, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0), pin_memory = False)
        where: "f32[16, 16][16, 1]cuda:0" = torch.ops.aten.where.self(ge, full_default, full_default_1);  ge = full_default = full_default_1 = None
        convert_element_type: "b8[16, 16][16, 1]cuda:0" = torch.ops.prims.convert_element_type.default(where, torch.bool);  where = None
        full_default_2: "f32[][]cuda:0" = torch.ops.aten.full.default([], -inf, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0), pin_memory = False)
        where_1: "f32[2, 4, 16, 16][1024, 256, 16, 1]cuda:0" = torch.ops.aten.where.self(convert_element_type, full_default_2, div);  full_default_2 = div = None
        amax: "f32[2, 4, 16, 1][64, 16, 1, 1]cuda:0" = torch.ops.aten.amax.default(where_1, [-1], True)
        sub_2: "f32[2, 4, 16, 16][1024, 256, 16, 1]cuda:0" = torch.ops.aten.sub.Tensor(where_1, amax);  where_1 = amax = None
        exp: "f32[2, 4, 16, 16][1024, 256, 16, 1]cuda:0" = torch.ops.aten.exp.default(sub_2);  sub_2 = None
        sum_1: "f32[2, 4, 16, 1][64, 16, 1, 1]cuda:0" = torch.ops.aten.sum.dim_IntList(exp, [-1], True)
        div_1: "f32[2, 4, 16, 16][1024, 256, 16, 1]cuda:0" = torch.ops.aten.div.Tensor(exp, sum_1);  exp = sum_1 = None

        # File: samples/transformer_block.py:23 in forward, code: y = (att @ v).transpose(1, 2).reshape(b, t, d)
        expand_2: "f32[2, 4, 16, 16][1024, 256, 16, 1]cuda:0" = torch.ops.aten.expand.default(div_1, [2, 4, 16, 16])
        view_8: "f32[8, 16, 16][256, 16, 1]cuda:0" = torch.ops.aten.view.default(expand_2, [8, 16, 16]);  expand_2 = None
        expand_3: "f32[2, 4, 16, 16][3072, 16, 192, 1]cuda:0" = torch.ops.aten.expand.default(permute_3, [2, 4, 16, 16]);  permute_3 = None
        clone_2: "f32[2, 4, 16, 16][1024, 256, 16, 1]cuda:0" = torch.ops.aten.clone.default(expand_3, memory_format = torch.contiguous_format);  expand_3 = None
        view_9: "f32[8, 16, 16][256, 16, 1]cuda:0" = torch.ops.aten.view.default(clone_2, [8, 16, 16]);  clone_2 = None
        bmm_1: "f32[8, 16, 16][256, 16, 1]cuda:0" = torch.ops.aten.bmm.default(view_8, view_9);  view_8 = None
        view_10: "f32[2, 4, 16, 16][1024, 256, 16, 1]cuda:0" = torch.ops.aten.view.default(bmm_1, [2, 4, 16, 16]);  bmm_1 = None
        permute_5: "f32[2, 16, 4, 16][1024, 16, 256, 1]cuda:0" = torch.ops.aten.permute.default(view_10, [0, 2, 1, 3]);  view_10 = None
        clone_3: "f32[2, 16, 4, 16][1024, 64, 16, 1]cuda:0" = torch.ops.aten.clone.default(permute_5, memory_format = torch.contiguous_format);  permute_5 = None
        view_11: "f32[2, 16, 64][1024, 64, 1]cuda:0" = torch.ops.aten.view.default(clone_3, [2, 16, 64]);  clone_3 = None

        # File: samples/transformer_block.py:24 in forward, code: x = x + self.proj(y)
        view_12: "f32[32, 64][64, 1]cuda:0" = torch.ops.aten.view.default(view_11, [32, 64]);  view_11 = None
        permute_6: "f32[64, 64][1, 64]cuda:0" = torch.ops.aten.permute.default(primals_6, [1, 0])
        addmm_1: "f32[32, 64][64, 1]cuda:0" = torch.ops.aten.addmm.default(primals_7, view_12, permute_6);  primals_7 = permute_6 = None
        view_13: "f32[2, 16, 64][1024, 64, 1]cuda:0" = torch.ops.aten.view.default(addmm_1, [2, 16, 64])
        add_2: "f32[2, 16, 64][1024, 64, 1]cuda:0" = torch.ops.aten.add.Tensor(primals_1, view_13);  view_13 = None

        # File: samples/transformer_block.py:25 in forward, code: return x + self.mlp(self.ln2(x))
        var_mean_1 = torch.ops.aten.var_mean.correction(add_2, [2], correction = 0, keepdim = True)
        getitem_5: "f32[2, 16, 1][16, 1, 1]cuda:0" = var_mean_1[0]
        getitem_6: "f32[2, 16, 1][16, 1, 1]cuda:0" = var_mean_1[1];  var_mean_1 = None
        add_3: "f32[2, 16, 1][16, 1, 1]cuda:0" = torch.ops.aten.add.Tensor(getitem_5, 1e-05);  getitem_5 = None
        rsqrt_1: "f32[2, 16, 1][16, 1, 1]cuda:0" = torch.ops.aten.rsqrt.default(add_3);  add_3 = None
        sub_3: "f32[2, 16, 64][1024, 64, 1]cuda:0" = torch.ops.aten.sub.Tensor(add_2, getitem_6)
        mul_2: "f32[2, 16, 64][1024, 64, 1]cuda:0" = torch.ops.aten.mul.Tensor(sub_3, rsqrt_1);  sub_3 = None
        mul_3: "f32[2, 16, 64][1024, 64, 1]cuda:0" = torch.ops.aten.mul.Tensor(mul_2, primals_8);  mul_2 = None
        add_4: "f32[2, 16, 64][1024, 64, 1]cuda:0" = torch.ops.aten.add.Tensor(mul_3, primals_9);  mul_3 = primals_9 = None
        view_14: "f32[32, 64][64, 1]cuda:0" = torch.ops.aten.view.default(add_4, [32, 64]);  add_4 = None
        permute_7: "f32[64, 256][1, 64]cuda:0" = torch.ops.aten.permute.default(primals_10, [1, 0])
        addmm_2: "f32[32, 256][256, 1]cuda:0" = torch.ops.aten.addmm.default(primals_11, view_14, permute_7);  primals_11 = permute_7 = None
        view_15: "f32[2, 16, 256][4096, 256, 1]cuda:0" = torch.ops.aten.view.default(addmm_2, [2, 16, 256])
        mul_4: "f32[2, 16, 256][4096, 256, 1]cuda:0" = torch.ops.aten.mul.Tensor(view_15, 0.5)
        mul_5: "f32[2, 16, 256][4096, 256, 1]cuda:0" = torch.ops.aten.mul.Tensor(view_15, 0.7071067811865476);  view_15 = None
        erf: "f32[2, 16, 256][4096, 256, 1]cuda:0" = torch.ops.aten.erf.default(mul_5);  mul_5 = None
        add_5: "f32[2, 16, 256][4096, 256, 1]cuda:0" = torch.ops.aten.add.Tensor(erf, 1);  erf = None
        mul_6: "f32[2, 16, 256][4096, 256, 1]cuda:0" = torch.ops.aten.mul.Tensor(mul_4, add_5);  mul_4 = add_5 = None
        view_16: "f32[32, 256][256, 1]cuda:0" = torch.ops.aten.view.default(mul_6, [32, 256]);  mul_6 = None
        permute_8: "f32[256, 64][1, 256]cuda:0" = torch.ops.aten.permute.default(primals_12, [1, 0])
        addmm_3: "f32[32, 64][64, 1]cuda:0" = torch.ops.aten.addmm.default(primals_13, view_16, permute_8);  primals_13 = permute_8 = None
        view_17: "f32[2, 16, 64][1024, 64, 1]cuda:0" = torch.ops.aten.view.default(addmm_3, [2, 16, 64]);  addmm_3 = None
        add_6: "f32[2, 16, 64][1024, 64, 1]cuda:0" = torch.ops.aten.add.Tensor(add_2, view_17);  add_2 = view_17 = None

        # File: samples/transformer_block.py:23 in forward, code: y = (att @ v).transpose(1, 2).reshape(b, t, d)
        permute_23: "f32[8, 16, 16][256, 1, 16]cuda:0" = torch.ops.aten.permute.default(view_9, [0, 2, 1]);  view_9 = None

        # File: samples/transformer_block.py:21 in forward, code: att = (q @ k.transpose(-2, -1)) / (d // self.heads) ** 0.5
        permute_24: "f32[8, 16, 16][256, 1, 16]cuda:0" = torch.ops.aten.permute.default(view_5, [0, 2, 1]);  view_5 = None
        permute_25: "f32[8, 16, 16][256, 1, 16]cuda:0" = torch.ops.aten.permute.default(view_6, [0, 2, 1]);  view_6 = None
        return (
            add_6,  # PlainAOTOutput(idx=0)
            primals_1,  # SavedForBackwardsAOTOutput(idx=0)
            primals_4,  # SavedForBackwardsAOTOutput(idx=1)
            primals_6,  # SavedForBackwardsAOTOutput(idx=2)
            primals_8,  # SavedForBackwardsAOTOutput(idx=3)
            primals_10,  # SavedForBackwardsAOTOutput(idx=4)
            primals_12,  # SavedForBackwardsAOTOutput(idx=5)
            getitem_1,  # SavedForBackwardsAOTOutput(idx=6)
            rsqrt,  # SavedForBackwardsAOTOutput(idx=7)
            view,  # SavedForBackwardsAOTOutput(idx=8)
            convert_element_type,  # SavedForBackwardsAOTOutput(idx=9)
            div_1,  # SavedForBackwardsAOTOutput(idx=10)
            view_12,  # SavedForBackwardsAOTOutput(idx=11)
            addmm_1,  # SavedForBackwardsAOTOutput(idx=12)
            getitem_6,  # SavedForBackwardsAOTOutput(idx=13)
            rsqrt_1,  # SavedForBackwardsAOTOutput(idx=14)
            view_14,  # SavedForBackwardsAOTOutput(idx=15)
            addmm_2,  # SavedForBackwardsAOTOutput(idx=16)
            view_16,  # SavedForBackwardsAOTOutput(idx=17)
            permute_23,  # SavedForBackwardsAOTOutput(idx=18)
            permute_24,  # SavedForBackwardsAOTOutput(idx=19)
            permute_25,  # SavedForBackwardsAOTOutput(idx=20)
        )
