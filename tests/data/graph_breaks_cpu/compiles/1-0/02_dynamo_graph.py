class GraphModule(torch.nn.Module):
    def forward(self, L_y_: "f32[4, 16][16, 1]cpu"):
        l_y_ = L_y_

        # File: samples/graph_breaks.py:9 in torch_dynamo_resume_in_normalize_at_8, code: scale = y.abs().max().item()  # graph break: .item() (unless capture_scalar_outputs)
        abs_1: "f32[4, 16][16, 1]cpu" = l_y_.abs();  l_y_ = None
        max_1: "f32[][]cpu" = abs_1.max();  abs_1 = None
        return (max_1,)
