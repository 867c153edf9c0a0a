# File: samples/mlp.py, lines 17-18, in forward
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc2(torch.relu(self.fc1(x)))
