"""Forks a child that compiles: the parent's 0/0 and 0/1, and the child's own 0/1 (aot_eager:
Inductor in a forked child after the parent compiled hangs plain torch)."""

import os

import torch


def f(x):
    return torch.sin(x) + 1


cf = torch.compile(f, backend="aot_eager", dynamic=False)
print("parent", cf(torch.ones(3)).sum().item())
pid = os.fork()
if pid == 0:
    print("child", cf(torch.ones(5, 2)).sum().item())
    os._exit(0)
_, status = os.waitpid(pid, 0)
print("parent", cf(torch.ones(4, 4)).sum().item(), "child exit", os.waitstatus_to_exitcode(status))
