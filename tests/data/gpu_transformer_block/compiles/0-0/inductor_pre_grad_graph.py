class GraphModule(torch.nn.Module):
    def forward(self, L_x_: "f32[2, 16, 64][1024, 64, 1]cuda:0", L_self_modules_ln1_parameters_weight_: "f32[64][1]cuda:0", L_self_modules_ln1_parameters_bias_: "f32[64][1]cuda:0", L_self_modules_qkv_parameters_weight_: "f32[192, 64][64, 1]cuda:0", L_self_modules_qkv_parameters_bias_: "f32[192][1]cuda:0", L_self_modules_proj_parameters_weight_: "f32[64, 64][64, 1]cuda:0", L_self_modules_proj_parameters_bias_: "f32[64][1]cuda:0", L_self_modules_ln2_parameters_weight_: "f32[64][1]cuda:0", L_self_modules_ln2_parameters_bias_: "f32[64][1]cuda:0", L_self_modules_mlp_modules_0_parameters_weight_: "f32[256, 64][64, 1]cuda:0", L_self_modules_mlp_modules_0_parameters_bias_: "f32[256][1]cuda:0", L_self_modules_mlp_modules_2_parameters_weight_: "f32[64, 256][256, 1]cuda:0", L_self_modules_mlp_modules_2_parameters_bias_: "f32[64][1]cuda:0"):
        l_x_ = L_x_
        l_self_modules_ln1_parameters_weight_ = L_self_modules_ln1_parameters_weight_
        l_self_modules_ln1_parameters_bias_ = L_self_modules_ln1_parameters_bias_
        l_self_modules_qkv_parameters_weight_ = L_self_modules_qkv_parameters_weight_
        l_self_modules_qkv_parameters_bias_ = L_self_modules_qkv_parameters_bias_
        l_self_modules_proj_parameters_weight_ = L_self_modules_proj_parameters_weight_
        l_self_modules_proj_parameters_bias_ = L_self_modules_proj_parameters_bias_
        l_self_modules_ln2_parameters_weight_ = L_self_modules_ln2_parameters_weight_
        l_self_modules_ln2_parameters_bias_ = L_self_modules_ln2_parameters_bias_
        l_self_modules_mlp_modules_0_parameters_weight_ = L_self_modules_mlp_modules_0_parameters_weight_
        l_self_modules_mlp_modules_0_parameters_bias_ = L_self_modules_mlp_modules_0_parameters_bias_
        l_self_modules_mlp_modules_2_parameters_weight_ = L_self_modules_mlp_modules_2_parameters_weight_
        l_self_modules_mlp_modules_2_parameters_bias_ = L_self_modules_mlp_modules_2_parameters_bias_

        # File: samples/transformer_block.py:19 in forward, code: q, k, v = self.qkv(self.ln1(x)).split(d, dim=-1)
        layer_norm: "f32[2, 16, 64][1024, 64, 1]cuda:0" = torch.nn.functional.layer_norm(l_x_, (64,), l_self_modules_ln1_parameters_weight_, l_self_modules_ln1_parameters_bias_, 1e-05);  l_self_modules_ln1_parameters_weight_ = l_self_modules_ln1_parameters_bias_ = None
        linear: "f32[2, 16, 192][3072, 192, 1]cuda:0" = torch._C._nn.linear(layer_norm, l_self_modules_qkv_parameters_weight_, l_self_modules_qkv_parameters_bias_);  layer_norm = l_self_modules_qkv_parameters_weight_ = l_self_modules_qkv_parameters_bias_ = None
        split = linear.split(64, dim = -1);  linear = None
        q: "f32[2, 16, 64][3072, 192, 1]cuda:0" = split[0]
        k: "f32[2, 16, 64][3072, 192, 1]cuda:0" = split[1]
        v: "f32[2, 16, 64][3072, 192, 1]cuda:0" = split[2];  split = None

        # File: samples/transformer_block.py:20 in <genexpr>, code: q, k, v = (z.view(b, t, self.heads, d // self.heads).transpose(1, 2) for z in (q, k, v))
        view: "f32[2, 16, 4, 16][3072, 192, 16, 1]cuda:0" = q.view(2, 16, 4, 16);  q = None
        q_1: "f32[2, 4, 16, 16][3072, 16, 192, 1]cuda:0" = view.transpose(1, 2);  view = None
        view_1: "f32[2, 16, 4, 16][3072, 192, 16, 1]cuda:0" = k.view(2, 16, 4, 16);  k = None
        k_1: "f32[2, 4, 16, 16][3072, 16, 192, 1]cuda:0" = view_1.transpose(1, 2);  view_1 = None
        view_2: "f32[2, 16, 4, 16][3072, 192, 16, 1]cuda:0" = v.view(2, 16, 4, 16);  v = None
        v_1: "f32[2, 4, 16, 16][3072, 16, 192, 1]cuda:0" = view_2.transpose(1, 2);  view_2 = None

        # File: samples/transformer_block.py:21 in forward, code: att = (q @ k.transpose(-2, -1)) / (d // self.heads) ** 0.5
        transpose_3: "f32[2, 4, 16, 16][3072, 16, 1, 192]cuda:0" = k_1.transpose(-2, -1);  k_1 = None
        matmul: "f32[2, 4, 16, 16][1024, 256, 16, 1]cuda:0" = q_1 @ transpose_3;  q_1 = transpose_3 = None
        att: "f32[2, 4, 16, 16][1024, 256, 16, 1]cuda:0" = matmul / 4.0;  matmul = None

        # File: samples/transformer_block.py:22 in forward, code: att = att.masked_fill(torch.ones(t, t, device=x.device).triu(1).bool(), float("-inf")).softmax(-1)
        ones: "f32[16, 16][16, 1]cuda:0" = torch.ones(16, 16, device = device(type='cuda', index=0))
        triu: "f32[16, 16][16, 1]cuda:0" = ones.triu(1);  ones = None
        bool_1: "b8[16, 16][16, 1]cuda:0" = triu.bool();  triu = None
        masked_fill: "f32[2, 4, 16, 16][1024, 256, 16, 1]cuda:0" = att.masked_fill(bool_1, -inf);  att = bool_1 = None
        att_1: "f32[2, 4, 16, 16][1024, 256, 16, 1]cuda:0" = masked_fill.softmax(-1);  masked_fill = None

        # File: samples/transformer_block.py:23 in forward, code: y = (att @ v).transpose(1, 2).reshape(b, t, d)
        matmul_1: "f32[2, 4, 16, 16][1024, 256, 16, 1]cuda:0" = att_1 @ v_1;  att_1 = v_1 = None
        transpose_4: "f32[2, 16, 4, 16][1024, 16, 256, 1]cuda:0" = matmul_1.transpose(1, 2);  matmul_1 = None
        y: "f32[2, 16, 64][1024, 64, 1]cuda:0" = transpose_4.reshape(2, 16, 64);  transpose_4 = None

        # File: samples/transformer_block.py:24 in forward, code: x = x + self.proj(y)
        linear_1: "f32[2, 16, 64][1024, 64, 1]cuda:0" = torch._C._nn.linear(y, l_self_modules_proj_parameters_weight_, l_self_modules_proj_parameters_bias_);  y = l_self_modules_proj_parameters_weight_ = l_self_modules_proj_parameters_bias_ = None
        x: "f32[2, 16, 64][1024, 64, 1]cuda:0" = l_x_ + linear_1;  l_x_ = linear_1 = None

        # File: samples/transformer_block.py:25 in forward, code: return x + self.mlp(self.ln2(x))
        layer_norm_1: "f32[2, 16, 64][1024, 64, 1]cuda:0" = torch.nn.functional.layer_norm(x, (64,), l_self_modules_ln2_parameters_weight_, l_self_modules_ln2_parameters_bias_, 1e-05);  l_self_modules_ln2_parameters_weight_ = l_self_modules_ln2_parameters_bias_ = None
        input_1: "f32[2, 16, 256][4096, 256, 1]cuda:0" = torch._C._nn.linear(layer_norm_1, l_self_modules_mlp_modules_0_parameters_weight_, l_self_modules_mlp_modules_0_parameters_bias_);  layer_norm_1 = l_self_modules_mlp_modules_0_parameters_weight_ = l_self_modules_mlp_modules_0_parameters_bias_ = None
        input_2: "f32[2, 16, 256][4096, 256, 1]cuda:0" = torch._C._nn.gelu(input_1, approximate = 'none');  input_1 = None
        input_3: "f32[2, 16, 64][1024, 64, 1]cuda:0" = torch._C._nn.linear(input_2, l_self_modules_mlp_modules_2_parameters_weight_, l_self_modules_mlp_modules_2_parameters_bias_);  input_2 = l_self_modules_mlp_modules_2_parameters_weight_ = l_self_modules_mlp_modules_2_parameters_bias_ = None
        add_1: "f32[2, 16, 64][1024, 64, 1]cuda:0" = x + input_3;  x = input_3 = None
        return (add_1,)


 # graph id: 140453095253840