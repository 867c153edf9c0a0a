class GraphModule(torch.nn.Module):
    def forward(self, L_y_: "f32[4, 16][16, 1]cpu"):
        l_y_ = L_y_

        # File: samples/graph_breaks.py:12 in torch_dynamo_resume_in_normalize_at_11, code: return torch.relu(y)
        relu: "f32[4, 16][16, 1]cpu" = torch.relu(l_y_);  l_y_ = None
        return (relu,)
