class GraphModule(torch.nn.Module):
    def forward(self, primals_1: "f32[16, 512][512, 1]cuda:0", primals_2: "f32[512, 512][512, 1]cuda:0", primals_3: "f32[512][1]cuda:0"):
        # File: /opt/torch/.venv/lib/python3.12/site-packages/torch/nn/parallel/distributed.py:1699 in forward, code: else self._run_ddp_forward(*inputs, **kwargs)
        permute: "f32[512, 512][1, 512]cuda:0" = torch.ops.aten.permute.default(primals_2, [1, 0]);  primals_2 = None
        mm_default: "f32[16, 512][512, 1]cuda:0" = torch.ops.aten.mm.default(primals_1, permute);  permute = None
        add_tensor: "f32[16, 512][512, 1]cuda:0" = torch.ops.aten.add.Tensor(primals_3, mm_default);  primals_3 = mm_default = None
        relu: "f32[16, 512][512, 1]cuda:0" = torch.ops.aten.relu.default(add_tensor);  add_tensor = None
        le: "b8[16, 512][512, 1]cuda:0" = torch.ops.aten.le.Scalar(relu, 0)
        return (relu, primals_1, le)
