class <lambda>(torch.nn.Module):
    def forward(self, arg0_1: "f32[4, 16][16, 1]cpu"):
        # File: samples/graph_breaks.py:10 in torch_dynamo_resume_in_normalize_at_9, code: y = y / (scale + 1e-6)
        div: "f32[4, 16][16, 1]cpu" = torch.ops.aten.div.Tensor(arg0_1, 1.9997596011886596);  arg0_1 = None

        # File: samples/graph_breaks.py:11 in torch_dynamo_resume_in_normalize_at_9, code: if y.sum() > 0:  # graph break: data-dependent control flow
        sum_1: "f32[][]cpu" = torch.ops.aten.sum.default(div)
        gt: "b8[][]cpu" = torch.ops.aten.gt.Scalar(sum_1, 0);  sum_1 = None
        return (gt, div)
