# tcdebug with CUDA: torch and Triton from the PyTorch image, tcdebug on top.
#
#   docker build -t tcdebug .
#   docker run --gpus all -it --rm -e TERM -e COLORTERM tcdebug                 # steps samples/mlp.py
#   docker run --gpus all -it --rm -e TERM -e COLORTERM -v "$PWD:/work" -w /work tcdebug tcdebug train.py
#
# Over SSH, ask for a terminal on both hops: `ssh -t host docker run --gpus all -it ...`.
# `-e TERM -e COLORTERM` pass your terminal's type and colour depth through (docker's own
# default is TERM=xterm). Without a GPU, leave out `--gpus all`: tcdebug then shows the CPU
# pipeline and says the Triton and CUDA-graph stages were not captured (no CUDA device).
ARG BASE=pytorch/pytorch:2.9.0-cuda12.8-cudnn9-runtime
FROM ${BASE}

# Triton builds its launcher, and Inductor its CPU kernels, with the system C/C++ compiler,
# which the runtime image does not have.
RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc g++ libc6-dev \
    && rm -rf /var/lib/apt/lists/*

ENV LANG=C.UTF-8 \
    LC_ALL=C.UTF-8 \
    PYTHONDONTWRITEBYTECODE=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /opt/tcdebug
COPY pyproject.toml README.md ./
COPY tcdebug ./tcdebug
COPY screens ./screens
COPY samples ./samples
# torch is not a dependency of tcdebug: the image's CUDA torch (and its Triton) stay as they are.
RUN python -m pip install --no-cache-dir /opt/tcdebug \
    && python -c "import torch, triton, tcdebug.screens.app; print('torch', torch.__version__, 'triton', triton.__version__)"

# An ordinary user: the Inductor and Triton caches go to its home and /tmp.
# (`--build-arg UID=$(id -u)` makes files it writes to a mounted folder yours.)
ARG UID=
RUN useradd --create-home --shell /bin/bash ${UID:+--uid "$UID"} tcdebug
USER tcdebug
WORKDIR /home/tcdebug
COPY --chown=tcdebug:tcdebug samples ./samples

CMD ["tcdebug", "samples/mlp.py"]
