class GraphModule(torch.nn.Module):
    def forward(self, input_2: "f32[16, 512][512, 1]cuda:0", l_fn_modules_2_parameters_weight_: "f32[512, 512][512, 1]cuda:0", l_fn_modules_2_parameters_bias_: "f32[512][1]cuda:0", l_fn_modules_4_parameters_weight_: "f32[8, 512][512, 1]cuda:0", l_fn_modules_4_parameters_bias_: "f32[8][1]cuda:0"):
        # No stacktrace found for following nodes
        linear: "f32[16, 512][512, 1]cuda:0" = torch._C._nn.linear(input_2, l_fn_modules_2_parameters_weight_, l_fn_modules_2_parameters_bias_);  input_2 = l_fn_modules_2_parameters_weight_ = l_fn_modules_2_parameters_bias_ = None
        relu: "f32[16, 512][512, 1]cuda:0" = torch.nn.functional.relu(linear, inplace = False);  linear = None
        linear_1: "f32[16, 8][8, 1]cuda:0" = torch._C._nn.linear(relu, l_fn_modules_4_parameters_weight_, l_fn_modules_4_parameters_bias_);  relu = l_fn_modules_4_parameters_weight_ = l_fn_modules_4_parameters_bias_ = None
        return (linear_1,)


 # graph id: 139693330179104