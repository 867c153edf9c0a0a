class <lambda>(torch.nn.Module):
    def forward(
        self,
        arg0_1: "f32[32, 16][16, 1]cuda:0",  # PlainAOTInput(idx=0)
        arg1_1: "f32[32][1]cuda:0",  # PlainAOTInput(idx=1)
        arg2_1: "f32[8, 16][16, 1]cuda:0",  # PlainAOTInput(idx=2)
        arg3_1: "f32[4, 32][32, 1]cuda:0",  # PlainAOTInput(idx=3)
        arg4_1: "f32[4][1]cuda:0",  # PlainAOTInput(idx=4)
    ):
        # File: /work/main/samples/relu_bug.py:26 in forward, code: h = self.fc1(x) * 0.5
        permute: "f32[16, 32][1, 16]cuda:0" = torch.ops.aten.permute.default(arg0_1, [1, 0]);  arg0_1 = None
        addmm: "f32[8, 32][32, 1]cuda:0" = torch.ops.aten.addmm.default(arg1_1, arg2_1, permute);  arg1_1 = arg2_1 = permute = None
        mul: "f32[8, 32][32, 1]cuda:0" = torch.ops.aten.mul.Tensor(addmm, 0.5);  addmm = None

        # File: /work/main/samples/relu_bug.py:27 in forward, code: h = torch.relu(h)
        relu: "f32[8, 32][32, 1]cuda:0" = torch.ops.aten.relu.default(mul);  mul = None

        # File: /work/main/samples/relu_bug.py:28 in forward, code: return self.fc2(h)
        permute_1: "f32[32, 4][1, 32]cuda:0" = torch.ops.aten.permute.default(arg3_1, [1, 0]);  arg3_1 = None
        addmm_1: "f32[8, 4][4, 1]cuda:0" = torch.ops.aten.addmm.default(arg4_1, relu, permute_1);  arg4_1 = relu = permute_1 = None
        return (
            addmm_1,  # PlainAOTOutput(idx=0)
        )
