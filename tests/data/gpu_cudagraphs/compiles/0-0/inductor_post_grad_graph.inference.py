class <lambda>(torch.nn.Module):
    def forward(self, arg0_1: "f32[128, 64][64, 1]cuda:0", arg1_1: "f32[128][1]cuda:0", arg2_1: "f32[8, 64][64, 1]cuda:0", arg3_1: "f32[10, 128][128, 1]cuda:0", arg4_1: "f32[10][1]cuda:0"):
        # File: samples/cudagraphs.py:25 in forward, code: return self.fc2(torch.relu(self.fc1(x))).softmax(-1)
        permute: "f32[64, 128][1, 64]cuda:0" = torch.ops.aten.permute.default(arg0_1, [1, 0]);  arg0_1 = None
        mm_default: "f32[8, 128][128, 1]cuda:0" = torch.ops.aten.mm.default(arg2_1, permute);  arg2_1 = permute = None
        add_tensor: "f32[8, 128][128, 1]cuda:0" = torch.ops.aten.add.Tensor(arg1_1, mm_default);  arg1_1 = mm_default = None
        relu: "f32[8, 128][128, 1]cuda:0" = torch.ops.aten.relu.default(add_tensor);  add_tensor = None
        permute_1: "f32[128, 10][1, 128]cuda:0" = torch.ops.aten.permute.default(arg3_1, [1, 0]);  arg3_1 = None
        addmm_1: "f32[8, 10][10, 1]cuda:0" = torch.ops.aten.addmm.default(arg4_1, relu, permute_1);  arg4_1 = relu = permute_1 = None

        # No stacktrace found for following nodes
        prepare_softmax_online_default = torch.ops.prims.prepare_softmax_online.default(addmm_1, -1)
        getitem: "f32[8, 1][1, 1]cuda:0" = prepare_softmax_online_default[0]
        getitem_1: "f32[8, 1][1, 1]cuda:0" = prepare_softmax_online_default[1];  prepare_softmax_online_default = None
        sub_tensor: "f32[8, 10][10, 1]cuda:0" = torch.ops.aten.sub.Tensor(addmm_1, getitem);  addmm_1 = getitem = None
        exp_default: "f32[8, 10][10, 1]cuda:0" = torch.ops.aten.exp.default(sub_tensor);  sub_tensor = None

        # File: samples/cudagraphs.py:25 in forward, code: return self.fc2(torch.relu(self.fc1(x))).softmax(-1)
        div: "f32[8, 10][10, 1]cuda:0" = torch.ops.aten.div.Tensor(exp_default, getitem_1);  exp_default = getitem_1 = None
        return (div,)
