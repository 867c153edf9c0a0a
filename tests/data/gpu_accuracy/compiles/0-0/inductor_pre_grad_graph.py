class GraphModule(torch.nn.Module):
    def forward(self, L_self_modules_fc1_parameters_weight_: "f32[32, 16][16, 1]cuda:0", L_self_modules_fc1_parameters_bias_: "f32[32][1]cuda:0", L_x_: "f32[8, 16][16, 1]cuda:0", L_self_modules_fc2_parameters_weight_: "f32[4, 32][32, 1]cuda:0", L_self_modules_fc2_parameters_bias_: "f32[4][1]cuda:0"):
        l_self_modules_fc1_parameters_weight_ = L_self_modules_fc1_parameters_weight_
        l_self_modules_fc1_parameters_bias_ = L_self_modules_fc1_parameters_bias_
        l_x_ = L_x_
        l_self_modules_fc2_parameters_weight_ = L_self_modules_fc2_parameters_weight_
        l_self_modules_fc2_parameters_bias_ = L_self_modules_fc2_parameters_bias_

        # File: /work/main/samples/relu_bug.py:26 in forward, code: h = self.fc1(x) * 0.5
        linear: "f32[8, 32][32, 1]cuda:0" = torch._C._nn.linear(l_x_, l_self_modules_fc1_parameters_weight_, l_self_modules_fc1_parameters_bias_);  l_x_ = l_self_modules_fc1_parameters_weight_ = l_self_modules_fc1_parameters_bias_ = None
        h: "f32[8, 32][32, 1]cuda:0" = linear * 0.5;  linear = None

        # File: /work/main/samples/relu_bug.py:27 in forward, code: h = torch.relu(h)
        h_1: "f32[8, 32][32, 1]cuda:0" = torch.relu(h);  h = None

        # File: /work/main/samples/relu_bug.py:28 in forward, code: return self.fc2(h)
        linear_1: "f32[8, 4][4, 1]cuda:0" = torch._C._nn.linear(h_1, l_self_modules_fc2_parameters_weight_, l_self_modules_fc2_parameters_bias_);  h_1 = l_self_modules_fc2_parameters_weight_ = l_self_modules_fc2_parameters_bias_ = None
        return (linear_1,)


 # graph id: 140193173480000