class GraphModule(torch.nn.Module):
    def forward(self, L_fn_modules_0_parameters_weight_: "f32[512, 512][512, 1]cuda:0", L_fn_modules_0_parameters_bias_: "f32[512][1]cuda:0", L_args_0_: "f32[16, 512][512, 1]cuda:0", L_fn_modules_2_parameters_weight_: "f32[512, 512][512, 1]cuda:0", L_fn_modules_2_parameters_bias_: "f32[512][1]cuda:0", L_fn_modules_4_parameters_weight_: "f32[8, 512][512, 1]cuda:0", L_fn_modules_4_parameters_bias_: "f32[8][1]cuda:0"):
        l_fn_modules_0_parameters_weight_ = L_fn_modules_0_parameters_weight_
        l_fn_modules_0_parameters_bias_ = L_fn_modules_0_parameters_bias_
        l_args_0_ = L_args_0_
        l_fn_modules_2_parameters_weight_ = L_fn_modules_2_parameters_weight_
        l_fn_modules_2_parameters_bias_ = L_fn_modules_2_parameters_bias_
        l_fn_modules_4_parameters_weight_ = L_fn_modules_4_parameters_weight_
        l_fn_modules_4_parameters_bias_ = L_fn_modules_4_parameters_bias_

        # No stacktrace found for following nodes
        input_1: "f32[16, 512][512, 1]cuda:0" = torch._C._nn.linear(l_args_0_, l_fn_modules_0_parameters_weight_, l_fn_modules_0_parameters_bias_);  l_args_0_ = l_fn_modules_0_parameters_weight_ = l_fn_modules_0_parameters_bias_ = None
        input_2: "f32[16, 512][512, 1]cuda:0" = torch.nn.functional.relu(input_1, inplace = False);  input_1 = None
        input_3: "f32[16, 512][512, 1]cuda:0" = torch._C._nn.linear(input_2, l_fn_modules_2_parameters_weight_, l_fn_modules_2_parameters_bias_);  input_2 = l_fn_modules_2_parameters_weight_ = l_fn_modules_2_parameters_bias_ = None
        input_4: "f32[16, 512][512, 1]cuda:0" = torch.nn.functional.relu(input_3, inplace = False);  input_3 = None
        input_5: "f32[16, 8][8, 1]cuda:0" = torch._C._nn.linear(input_4, l_fn_modules_4_parameters_weight_, l_fn_modules_4_parameters_bias_);  input_4 = l_fn_modules_4_parameters_weight_ = l_fn_modules_4_parameters_bias_ = None
        return (input_5,)
