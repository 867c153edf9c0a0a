class GraphModule(torch.nn.Module):
    def forward(self, l_args_0_: "f32[16, 512][512, 1]cuda:0", l_fn_modules_0_parameters_weight_: "f32[512, 512][512, 1]cuda:0", l_fn_modules_0_parameters_bias_: "f32[512][1]cuda:0"):
        # No stacktrace found for following nodes
        linear: "f32[16, 512][512, 1]cuda:0" = torch._C._nn.linear(l_args_0_, l_fn_modules_0_parameters_weight_, l_fn_modules_0_parameters_bias_);  l_args_0_ = l_fn_modules_0_parameters_weight_ = l_fn_modules_0_parameters_bias_ = None
        relu: "f32[16, 512][512, 1]cuda:0" = torch.nn.functional.relu(linear, inplace = False);  linear = None
        return (relu,)


 # graph id: 139693330198224