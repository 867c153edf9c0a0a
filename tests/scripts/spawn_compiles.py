"""A process started with multiprocessing's spawn method (a fresh interpreter) that compiles."""

import multiprocessing as mp

import torch


def work(queue) -> None:
    f = torch.compile(lambda x: x * 2 + 1, backend="eager")
    queue.put(f(torch.ones(3)).sum().item())


if __name__ == "__main__":
    ctx = mp.get_context("spawn")
    queue = ctx.Queue()
    child = ctx.Process(target=work, args=(queue,))
    child.start()
    print("spawned child computed", queue.get(timeout=120))
    child.join()
    print("spawned child exit", child.exitcode)
