class <lambda>(torch.nn.Module):
    def forward(
        self,
        arg0_1: "f32[4, 16][16, 1]cpu",  # PlainAOTInput(idx=0)
    ):
        # File: samples/graph_breaks.py:9 in torch_dynamo_resume_in_normalize_at_8, code: scale = y.abs().max().item()  # graph break: .item() (unless capture_scalar_outputs)
        abs_1: "f32[4, 16][16, 1]cpu" = torch.ops.aten.abs.default(arg0_1);  arg0_1 = None
        max_1: "f32[][]cpu" = torch.ops.aten.max.default(abs_1);  abs_1 = None
        return (
            max_1,  # PlainAOTOutput(idx=0)
        )
