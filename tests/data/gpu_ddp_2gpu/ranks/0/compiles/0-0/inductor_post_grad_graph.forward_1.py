class GraphModule(torch.nn.Module):
    def forward(self, primals_1: "f32[16, 512][512, 1]cuda:0", primals_2: "f32[512, 512][512, 1]cuda:0", primals_3: "f32[512][1]cuda:0", primals_4: "f32[8, 512][512, 1]cuda:0", primals_5: "f32[8][1]cuda:0"):
        # File: /opt/torch/.venv/lib/python3.12/site-packages/torch/nn/parallel/distributed.py:1699 in forward, code: else self._run_ddp_forward(*inputs, **kwargs)
        permute: "f32[512, 512][1, 512]cuda:0" = torch.ops.aten.permute.default(primals_2, [1, 0])
        mm_default: "f32[16, 512][512, 1]cuda:0" = torch.ops.aten.mm.default(primals_1, permute);  permute = None
        add_tensor: "f32[16, 512][512, 1]cuda:0" = torch.ops.aten.add.Tensor(primals_3, mm_default);  primals_3 = mm_default = None
        relu: "f32[16, 512][512, 1]cuda:0" = torch.ops.aten.relu.default(add_tensor);  add_tensor = None
        permute_1: "f32[512, 8][1, 512]cuda:0" = torch.ops.aten.permute.default(primals_4, [1, 0])
        addmm_1: "f32[16, 8][8, 1]cuda:0" = torch.ops.aten.addmm.default(primals_5, relu, permute_1);  primals_5 = permute_1 = None
        return (addmm_1, primals_1, primals_2, primals_4, relu)
