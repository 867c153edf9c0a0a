# File: /work/main/samples/relu_bug.py, lines 25-28, in forward
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = self.fc1(x) * 0.5
        h = torch.relu(h)
        return self.fc2(h)
