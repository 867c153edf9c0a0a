class <lambda>(torch.nn.Module):
    def forward(
        self,
        arg0_1: "f32[4, 16][16, 1]cpu",  # PlainAOTInput(idx=0)
    ):
        # File: samples/graph_breaks.py:12 in torch_dynamo_resume_in_normalize_at_11, code: return torch.relu(y)
        relu: "f32[4, 16][16, 1]cpu" = torch.ops.aten.relu.default(arg0_1);  arg0_1 = None
        return (
            relu,  # PlainAOTOutput(idx=0)
        )
