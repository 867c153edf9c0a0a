# File: samples/cudagraphs.py, lines 24-25, in forward
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc2(torch.relu(self.fc1(x))).softmax(-1)
