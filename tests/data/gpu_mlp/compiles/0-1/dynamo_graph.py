class GraphModule(torch.nn.Module):
    def forward(self, L_self_modules_fc1_parameters_weight_: "f32[128, 64][64, 1]cuda:0", L_self_modules_fc1_parameters_bias_: "f32[128][1]cuda:0", L_x_: "f32[8, 64][64, 1]cuda:0", L_self_modules_fc2_parameters_weight_: "f32[10, 128][128, 1]cuda:0", L_self_modules_fc2_parameters_bias_: "f32[10][1]cuda:0"):
        l_self_modules_fc1_parameters_weight_ = L_self_modules_fc1_parameters_weight_
        l_self_modules_fc1_parameters_bias_ = L_self_modules_fc1_parameters_bias_
        l_x_ = L_x_
        l_self_modules_fc2_parameters_weight_ = L_self_modules_fc2_parameters_weight_
        l_self_modules_fc2_parameters_bias_ = L_self_modules_fc2_parameters_bias_

        # File: samples/mlp.py:18 in forward, code: return self.fc2(torch.relu(self.fc1(x)))
        linear: "f32[8, 128][128, 1]cuda:0" = torch._C._nn.linear(l_x_, l_self_modules_fc1_parameters_weight_, l_self_modules_fc1_parameters_bias_);  l_x_ = l_self_modules_fc1_parameters_weight_ = l_self_modules_fc1_parameters_bias_ = None
        relu: "f32[8, 128][128, 1]cuda:0" = torch.relu(linear);  linear = None
        linear_1: "f32[8, 10][10, 1]cuda:0" = torch._C._nn.linear(relu, l_self_modules_fc2_parameters_weight_, l_self_modules_fc2_parameters_bias_);  relu = l_self_modules_fc2_parameters_weight_ = l_self_modules_fc2_parameters_bias_ = None
        return (linear_1,)
