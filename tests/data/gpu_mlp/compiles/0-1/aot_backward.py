class GraphModule(torch.nn.Module):
    def forward(
        self,
        primals_3: "f32[8, 64][64, 1]cuda:0",  # PlainAOTInput(idx=2)
        primals_4: "f32[10, 128][128, 1]cuda:0",  # PlainAOTInput(idx=3)
        relu: "f32[8, 128][128, 1]cuda:0",
        tangents_1: "f32[8, 10][10, 1]cuda:0",  # TangentAOTInput(output=PlainAOTOutput(idx=0))
    ):
        # File: samples/mlp.py:18 in forward, code: return self.fc2(torch.relu(self.fc1(x)))
        permute_1: "f32[128, 10][1, 128]cuda:0" = torch.ops.aten.permute.default(primals_4, [1, 0]);  primals_4 = None
        permute_2: "f32[10, 128][128, 1]cuda:0" = torch.ops.aten.permute.default(permute_1, [1, 0]);  permute_1 = None
        mm: "f32[8, 128][128, 1]cuda:0" = torch.ops.aten.mm.default(tangents_1, permute_2);  permute_2 = None
        permute_3: "f32[10, 8][1, 10]cuda:0" = torch.ops.aten.permute.default(tangents_1, [1, 0])
        mm_1: "f32[10, 128][128, 1]cuda:0" = torch.ops.aten.mm.default(permute_3, relu);  permute_3 = None
        sum_1: "f32[1, 10][10, 1]cuda:0" = torch.ops.aten.sum.dim_IntList(tangents_1, [0], True);  tangents_1 = None
        view: "f32[10][1]cuda:0" = torch.ops.aten.view.default(sum_1, [10]);  sum_1 = None
        le: "b8[8, 128][128, 1]cuda:0" = torch.ops.aten.le.Scalar(relu, 0);  relu = None
        full_default: "f32[][]cuda:0" = torch.ops.aten.full.default([], 0.0, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0), pin_memory = False)
        where: "f32[8, 128][128, 1]cuda:0" = torch.ops.aten.where.self(le, full_default, mm);  le = full_default = mm = None
        permute_6: "f32[128, 8][1, 128]cuda:0" = torch.ops.aten.permute.default(where, [1, 0])
        mm_2: "f32[128, 64][64, 1]cuda:0" = torch.ops.aten.mm.default(permute_6, primals_3);  permute_6 = primals_3 = None
        sum_2: "f32[1, 128][128, 1]cuda:0" = torch.ops.aten.sum.dim_IntList(where, [0], True);  where = None
        view_1: "f32[128][1]cuda:0" = torch.ops.aten.view.default(sum_2, [128]);  sum_2 = None
        return (
            mm_2,  # GradAOTOutput(grad_of=PlainAOTInput(idx=0))
            view_1,  # GradAOTOutput(grad_of=PlainAOTInput(idx=1))
            None,  # None
            mm_1,  # GradAOTOutput(grad_of=PlainAOTInput(idx=3))
            view,  # GradAOTOutput(grad_of=PlainAOTInput(idx=4))
        )
