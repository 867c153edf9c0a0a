class GraphModule(torch.nn.Module):
    def forward(self, primals_1: "f32[2, 16, 64][1024, 64, 1]cuda:0", primals_4: "f32[192, 64][64, 1]cuda:0", primals_6: "f32[64, 64][64, 1]cuda:0", primals_8: "f32[64][1]cuda:0", primals_10: "f32[256, 64][64, 1]cuda:0", primals_12: "f32[64, 256][256, 1]cuda:0", getitem_1: "f32[2, 16, 1][16, 1, 1]cuda:0", rsqrt: "f32[2, 16, 1][16, 1, 1]cuda:0", view: "f32[32, 64][64, 1]cuda:0", convert_element_type: "b8[16, 16][16, 1]cuda:0", div_1: "f32[2, 4, 16, 16][1024, 256, 16, 1]cuda:0", view_12: "f32[32, 64][64, 1]cuda:0", addmm_1: "f32[32, 64][64, 1]cuda:0", getitem_6: "f32[2, 16, 1][16, 1, 1]cuda:0", rsqrt_1: "f32[2, 16, 1][16, 1, 1]cuda:0", view_14: "f32[32, 64][64, 1]cuda:0", addmm_2: "f32[32, 256][256, 1]cuda:0", view_16: "f32[32, 256][256, 1]cuda:0", permute_23: "f32[8, 16, 16][256, 1, 16]cuda:0", permute_24: "f32[8, 16, 16][256, 1, 16]cuda:0", permute_25: "f32[8, 16, 16][256, 1, 16]cuda:0", tangents_1: "f32[2, 16, 64][1024, 64, 1]cuda:0"):
        # File: samples/transformer_block.py:25 in forward, code: return x + self.mlp(self.ln2(x))
        view_18: "f32[32, 64][64, 1]cuda:0" = torch.ops.aten.reshape.default(tangents_1, [32, 64])
        permute_8: "f32[256, 64][1, 256]cuda:0" = torch.ops.aten.permute.default(primals_12, [1, 0]);  primals_12 = None
        permute_9: "f32[64, 256][256, 1]cuda:0" = torch.ops.aten.permute.default(permute_8, [1, 0]);  permute_8 = None
        mm: "f32[32, 256][256, 1]cuda:0" = torch.ops.aten.mm.default(view_18, permute_9);  permute_9 = None
        permute_10: "f32[64, 32][1, 64]cuda:0" = torch.ops.aten.permute.default(view_18, [1, 0])
        mm_1: "f32[64, 256][256, 1]cuda:0" = torch.ops.aten.mm.default(permute_10, view_16);  permute_10 = view_16 = None
        sum_2: "f32[1, 64][64, 1]cuda:0" = torch.ops.aten.sum.dim_IntList(view_18, [0], True);  view_18 = None
        view_19: "f32[64][1]cuda:0" = torch.ops.aten.reshape.default(sum_2, [64]);  sum_2 = None
        view_20: "f32[2, 16, 256][4096, 256, 1]cuda:0" = torch.ops.aten.reshape.default(mm, [2, 16, 256]);  mm = None
        view_15: "f32[2, 16, 256][4096, 256, 1]cuda:0" = torch.ops.aten.reshape.default(addmm_2, [2, 16, 256]);  addmm_2 = None
        mul_5: "f32[2, 16, 256][4096, 256, 1]cuda:0" = torch.ops.aten.mul.Tensor(view_15, 0.7071067811865476)
        erf: "f32[2, 16, 256][4096, 256, 1]cuda:0" = torch.ops.aten.erf.default(mul_5);  mul_5 = None
        add_5: "f32[2, 16, 256][4096, 256, 1]cuda:0" = torch.ops.aten.add.Tensor(erf, 1);  erf = None
        mul_8: "f32[2, 16, 256][4096, 256, 1]cuda:0" = torch.ops.aten.mul.Tensor(add_5, 0.5);  add_5 = None
        mul_9: "f32[2, 16, 256][4096, 256, 1]cuda:0" = torch.ops.aten.mul.Tensor(view_15, view_15)
        mul_10: "f32[2, 16, 256][4096, 256, 1]cuda:0" = torch.ops.aten.mul.Tensor(mul_9, -0.5);  mul_9 = None
        exp_1: "f32[2, 16, 256][4096, 256, 1]cuda:0" = torch.ops.aten.exp.default(mul_10);  mul_10 = None
        mul_11: "f32[2, 16, 256][4096, 256, 1]cuda:0" = torch.ops.aten.mul.Tensor(exp_1, 0.3989422804014327);  exp_1 = None
        mul_12: "f32[2, 16, 256][4096, 256, 1]cuda:0" = torch.ops.aten.mul.Tensor(view_15, mul_11);  view_15 = mul_11 = None
        add_8: "f32[2, 16, 256][4096, 256, 1]cuda:0" = torch.ops.aten.add.Tensor(mul_8, mul_12);  mul_8 = mul_12 = None
        mul_13: "f32[2, 16, 256][4096, 256, 1]cuda:0" = torch.ops.aten.mul.Tensor(view_20, add_8);  view_20 = add_8 = None
        view_21: "f32[32, 256][256, 1]cuda:0" = torch.ops.aten.reshape.default(mul_13, [32, 256]);  mul_13 = None
        permute_7: "f32[64, 256][1, 64]cuda:0" = torch.ops.aten.permute.default(primals_10, [1, 0]);  primals_10 = None
        permute_13: "f32[256, 64][64, 1]cuda:0" = torch.ops.aten.permute.default(permute_7, [1, 0]);  permute_7 = None
        mm_2: "f32[32, 64][64, 1]cuda:0" = torch.ops.aten.mm.default(view_21, permute_13);  permute_13 = None
        permute_14: "f32[256, 32][1, 256]cuda:0" = torch.ops.aten.permute.default(view_21, [1, 0])
        mm_3: "f32[256, 64][64, 1]cuda:0" = torch.ops.aten.mm.default(permute_14, view_14);  permute_14 = view_14 = None
        sum_3: "f32[1, 256][256, 1]cuda:0" = torch.ops.aten.sum.dim_IntList(view_21, [0], True);  view_21 = None
        view_22: "f32[256][1]cuda:0" = torch.ops.aten.reshape.default(sum_3, [256]);  sum_3 = None
        view_23: "f32[2, 16, 64][1024, 64, 1]cuda:0" = torch.ops.aten.reshape.default(mm_2, [2, 16, 64]);  mm_2 = None
        mul_15: "f32[2, 16, 64][1024, 64, 1]cuda:0" = torch.ops.aten.mul.Tensor(view_23, primals_8);  primals_8 = None
        mul_16: "f32[2, 16, 64][1024, 64, 1]cuda:0" = torch.ops.aten.mul.Tensor(mul_15, 64)
        sum_4: "f32[2, 16, 1][16, 1, 1]cuda:0" = torch.ops.aten.sum.dim_IntList(mul_15, [2], True)

        # File: samples/transformer_block.py:24 in forward, code: x = x + self.proj(y)
        view_13: "f32[2, 16, 64][1024, 64, 1]cuda:0" = torch.ops.aten.reshape.default(addmm_1, [2, 16, 64]);  addmm_1 = None
        add_2: "f32[2, 16, 64][1024, 64, 1]cuda:0" = torch.ops.aten.add.Tensor(primals_1, view_13);  view_13 = None

        # File: samples/transformer_block.py:25 in forward, code: return x + self.mlp(self.ln2(x))
        sub_3: "f32[2, 16, 64][1024, 64, 1]cuda:0" = torch.ops.aten.sub.Tensor(add_2, getitem_6);  add_2 = getitem_6 = None
        mul_2: "f32[2, 16, 64][1024, 64, 1]cuda:0" = torch.ops.aten.mul.Tensor(sub_3, rsqrt_1);  sub_3 = None
        mul_17: "f32[2, 16, 64][1024, 64, 1]cuda:0" = torch.ops.aten.mul.Tensor(mul_15, mul_2);  mul_15 = None
        sum_5: "f32[2, 16, 1][16, 1, 1]cuda:0" = torch.ops.aten.sum.dim_IntList(mul_17, [2], True);  mul_17 = None
        mul_18: "f32[2, 16, 64][1024, 64, 1]cuda:0" = torch.ops.aten.mul.Tensor(mul_2, sum_5);  sum_5 = None
        sub_5: "f32[2, 16, 64][1024, 64, 1]cuda:0" = torch.ops.aten.sub.Tensor(mul_16, sum_4);  mul_16 = sum_4 = None
        sub_6: "f32[2, 16, 64][1024, 64, 1]cuda:0" = torch.ops.aten.sub.Tensor(sub_5, mul_18);  sub_5 = mul_18 = None
        div_2: "f32[2, 16, 1][16, 1, 1]cuda:0" = torch.ops.aten.div.Tensor(rsqrt_1, 64);  rsqrt_1 = None
        mul_19: "f32[2, 16, 64][1024, 64, 1]cuda:0" = torch.ops.aten.mul.Tensor(div_2, sub_6);  div_2 = sub_6 = None
        mul_20: "f32[2, 16, 64][1024, 64, 1]cuda:0" = torch.ops.aten.mul.Tensor(view_23, mul_2);  mul_2 = None
        sum_6: "f32[64][1]cuda:0" = torch.ops.aten.sum.dim_IntList(mul_20, [0, 1]);  mul_20 = None
        sum_7: "f32[64][1]cuda:0" = torch.ops.aten.sum.dim_IntList(view_23, [0, 1]);  view_23 = None
        add_9: "f32[2, 16, 64][1024, 64, 1]cuda:0" = torch.ops.aten.add.Tensor(tangents_1, mul_19);  tangents_1 = mul_19 = None

        # File: samples/transformer_block.py:24 in forward, code: x = x + self.proj(y)
        view_24: "f32[32, 64][64, 1]cuda:0" = torch.ops.aten.reshape.default(add_9, [32, 64]);  add_9 = None
        permute_6: "f32[64, 64][1, 64]cuda:0" = torch.ops.aten.permute.default(primals_6, [1, 0]);  primals_6 = None
        permute_17: "f32[64, 64][64, 1]cuda:0" = torch.ops.aten.permute.default(permute_6, [1, 0]);  permute_6 = None
        mm_4: "f32[32, 64][64, 1]cuda:0" = torch.ops.aten.mm.default(view_24, permute_17);  permute_17 = None
        permute_18: "f32[64, 32][1, 64]cuda:0" = torch.ops.aten.permute.default(view_24, [1, 0])
        mm_5: "f32[64, 64][64, 1]cuda:0" = torch.ops.aten.mm.default(permute_18, view_12);  permute_18 = view_12 = None
        sum_8: "f32[1, 64][64, 1]cuda:0" = torch.ops.aten.sum.dim_IntList(view_24, [0], True);  view_24 = None
        view_25: "f32[64][1]cuda:0" = torch.ops.aten.reshape.default(sum_8, [64]);  sum_8 = None
        view_26: "f32[2, 16, 64][1024, 64, 1]cuda:0" = torch.ops.aten.reshape.default(mm_4, [2, 16, 64]);  mm_4 = None

        # File: samples/transformer_block.py:23 in forward, code: y = (att @ v).transpose(1, 2).reshape(b, t, d)
        view_27: "f32[2, 16, 4, 16][1024, 64, 16, 1]cuda:0" = torch.ops.aten.reshape.default(view_26, [2, 16, 4, 16]);  view_26 = None
        permute_21: "f32[2, 4, 16, 16][1024, 16, 64, 1]cuda:0" = torch.ops.aten.permute.default(view_27, [0, 2, 1, 3]);  view_27 = None
        clone_4: "f32[2, 4, 16, 16][1024, 256, 16, 1]cuda:0" = torch.ops.aten.clone.default(permute_21, memory_format = torch.contiguous_format);  permute_21 = None
        view_28: "f32[8, 16, 16][256, 16, 1]cuda:0" = torch.ops.aten.reshape.default(clone_4, [8, 16, 16]);  clone_4 = None
        expand_2: "f32[2, 4, 16, 16][1024, 256, 16, 1]cuda:0" = torch.ops.aten.expand.default(div_1, [2, 4, 16, 16])
        view_8: "f32[8, 16, 16][256, 16, 1]cuda:0" = torch.ops.aten.reshape.default(expand_2, [8, 16, 16]);  expand_2 = None
        permute_22: "f32[8, 16, 16][256, 1, 16]cuda:0" = torch.ops.aten.permute.default(view_8, [0, 2, 1]);  view_8 = None
        bmm_2: "f32[8, 16, 16][256, 16, 1]cuda:0" = torch.ops.aten.bmm.default(permute_22, view_28);  permute_22 = None
        bmm_3: "f32[8, 16, 16][256, 16, 1]cuda:0" = torch.ops.aten.bmm.default(view_28, permute_23);  view_28 = permute_23 = None
        view_29: "f32[2, 4, 16, 16][1024, 256, 16, 1]cuda:0" = torch.ops.aten.reshape.default(bmm_2, [2, 4, 16, 16]);  bmm_2 = None
        view_30: "f32[2, 4, 16, 16][1024, 256, 16, 1]cuda:0" = torch.ops.aten.reshape.default(bmm_3, [2, 4, 16, 16]);  bmm_3 = None

        # File: samples/transformer_block.py:22 in forward, code: att = att.masked_fill(torch.ones(t, t, device=x.device).triu(1).bool(), float("-inf")).softmax(-1)
        mul_21: "f32[2, 4, 16, 16][1024, 256, 16, 1]cuda:0" = torch.ops.aten.mul.Tensor(view_30, div_1);  view_30 = None
        sum_9: "f32[2, 4, 16, 1][64, 16, 1, 1]cuda:0" = torch.ops.aten.sum.dim_IntList(mul_21, [-1], True)
        neg: "f32[2, 4, 16, 16][1024, 256, 16, 1]cuda:0" = torch.ops.aten.neg.default(div_1);  div_1 = None
        fma: "f32[2, 4, 16, 16][1024, 256, 16, 1]cuda:0" = torch.ops.prims.fma.default(neg, sum_9, mul_21);  neg = sum_9 = mul_21 = None
        full_default_1: "f32[][]cuda:0" = torch.ops.aten.full.default([], 0.0, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0), pin_memory = False)
        where_2: "f32[2, 4, 16, 16][1024, 256, 16, 1]cuda:0" = torch.ops.aten.where.self(convert_element_type, full_default_1, fma);  convert_element_type = full_default_1 = fma = None

        # File: samples/transformer_block.py:21 in forward, code: att = (q @ k.transpose(-2, -1)) / (d // self.heads) ** 0.5
        div_3: "f32[2, 4, 16, 16][1024, 256, 16, 1]cuda:0" = torch.ops.aten.div.Tensor(where_2, 4.0);  where_2 = None
        view_31: "f32[8, 16, 16][256, 16, 1]cuda:0" = torch.ops.aten.reshape.default(div_3, [8, 16, 16]);  div_3 = None
        bmm_4: "f32[8, 16, 16][256, 16, 1]cuda:0" = torch.ops.aten.bmm.default(permute_24, view_31);  permute_24 = None
        bmm_5: "f32[8, 16, 16][256, 16, 1]cuda:0" = torch.ops.aten.bmm.default(view_31, permute_25);  view_31 = permute_25 = None
        view_32: "f32[2, 4, 16, 16][1024, 256, 16, 1]cuda:0" = torch.ops.aten.reshape.default(bmm_4, [2, 4, 16, 16]);  bmm_4 = None
        view_33: "f32[2, 4, 16, 16][1024, 256, 16, 1]cuda:0" = torch.ops.aten.reshape.default(bmm_5, [2, 4, 16, 16]);  bmm_5 = None
        permute_26: "f32[2, 4, 16, 16][1024, 256, 1, 16]cuda:0" = torch.ops.aten.permute.default(view_32, [0, 1, 3, 2]);  view_32 = None

        # File: samples/transformer_block.py:20 in <genexpr>, code: q, k, v = (z.view(b, t, self.heads, d // self.heads).transpose(1, 2) for z in (q, k, v))
        permute_27: "f32[2, 16, 4, 16][1024, 16, 256, 1]cuda:0" = torch.ops.aten.permute.default(view_29, [0, 2, 1, 3]);  view_29 = None
        clone_5: "f32[2, 16, 4, 16][1024, 64, 16, 1]cuda:0" = torch.ops.aten.clone.default(permute_27, memory_format = torch.contiguous_format);  permute_27 = None
        view_34: "f32[2, 16, 64][1024, 64, 1]cuda:0" = torch.ops.aten.reshape.default(clone_5, [2, 16, 64]);  clone_5 = None
        permute_28: "f32[2, 16, 4, 16][1024, 1, 256, 16]cuda:0" = torch.ops.aten.permute.default(permute_26, [0, 2, 1, 3]);  permute_26 = None
        view_35: "f32[2, 16, 64][1024, 1, 16]cuda:0" = torch.ops.aten.reshape.default(permute_28, [2, 16, 64]);  permute_28 = None
        permute_29: "f32[2, 16, 4, 16][1024, 16, 256, 1]cuda:0" = torch.ops.aten.permute.default(view_33, [0, 2, 1, 3]);  view_33 = None
        clone_6: "f32[2, 16, 4, 16][1024, 64, 16, 1]cuda:0" = torch.ops.aten.clone.default(permute_29, memory_format = torch.contiguous_format);  permute_29 = None
        view_36: "f32[2, 16, 64][1024, 64, 1]cuda:0" = torch.ops.aten.reshape.default(clone_6, [2, 16, 64]);  clone_6 = None

        # File: samples/transformer_block.py:19 in forward, code: q, k, v = self.qkv(self.ln1(x)).split(d, dim=-1)
        cat: "f32[2, 16, 192][3072, 192, 1]cuda:0" = torch.ops.aten.cat.default([view_36, view_35, view_34], 2);  view_36 = view_35 = view_34 = None
        view_37: "f32[32, 192][192, 1]cuda:0" = torch.ops.aten.reshape.default(cat, [32, 192]);  cat = None
        permute: "f32[64, 192][1, 64]cuda:0" = torch.ops.aten.permute.default(primals_4, [1, 0]);  primals_4 = None
        permute_30: "f32[192, 64][64, 1]cuda:0" = torch.ops.aten.permute.default(permute, [1, 0]);  permute = None
        mm_6: "f32[32, 64][64, 1]cuda:0" = torch.ops.aten.mm.default(view_37, permute_30);  permute_30 = None
        permute_31: "f32[192, 32][1, 192]cuda:0" = torch.ops.aten.permute.default(view_37, [1, 0])
        mm_7: "f32[192, 64][64, 1]cuda:0" = torch.ops.aten.mm.default(permute_31, view);  permute_31 = view = None
        sum_10: "f32[1, 192][192, 1]cuda:0" = torch.ops.aten.sum.dim_IntList(view_37, [0], True);  view_37 = None
        view_38: "f32[192][1]cuda:0" = torch.ops.aten.reshape.default(sum_10, [192]);  sum_10 = None
        view_39: "f32[2, 16, 64][1024, 64, 1]cuda:0" = torch.ops.aten.reshape.default(mm_6, [2, 16, 64]);  mm_6 = None
        sub: "f32[2, 16, 64][1024, 64, 1]cuda:0" = torch.ops.aten.sub.Tensor(primals_1, getitem_1);  primals_1 = getitem_1 = None
        mul: "f32[2, 16, 64][1024, 64, 1]cuda:0" = torch.ops.aten.mul.Tensor(sub, rsqrt);  sub = rsqrt = None
        mul_27: "f32[2, 16, 64][1024, 64, 1]cuda:0" = torch.ops.aten.mul.Tensor(view_39, mul);  mul = None
        sum_13: "f32[64][1]cuda:0" = torch.ops.aten.sum.dim_IntList(mul_27, [0, 1]);  mul_27 = None
        sum_14: "f32[64][1]cuda:0" = torch.ops.aten.sum.dim_IntList(view_39, [0, 1]);  view_39 = None
        return (None, sum_13, sum_14, mm_7, view_38, mm_5, view_25, sum_6, sum_7, mm_3, view_22, mm_1, view_19)
