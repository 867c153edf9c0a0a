class GraphModule(torch.nn.Module):
    def forward(self, L_x_: "f32[4, 16][16, 1]cpu"):
        l_x_ = L_x_

        # File: samples/graph_breaks.py:7 in normalize, code: y = torch.sin(x) * 2
        sin: "f32[4, 16][16, 1]cpu" = torch.sin(l_x_);  l_x_ = None
        y: "f32[4, 16][16, 1]cpu" = sin * 2;  sin = None
        return (y,)
