class GraphModule(torch.nn.Module):
    def forward(self, L_y_: "f32[4, 16][16, 1]cpu"):
        l_y_ = L_y_

        # File: samples/graph_breaks.py:10 in torch_dynamo_resume_in_normalize_at_9, code: y = y / (scale + 1e-6)
        y: "f32[4, 16][16, 1]cpu" = l_y_ / 1.9997596011886596;  l_y_ = None

        # File: samples/graph_breaks.py:11 in torch_dynamo_resume_in_normalize_at_9, code: if y.sum() > 0:  # graph break: data-dependent control flow
        sum_1: "f32[][]cpu" = y.sum()
        gt: "b8[][]cpu" = sum_1 > 0;  sum_1 = None
        return (gt, y)
