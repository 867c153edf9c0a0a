# File: /opt/torch/.venv/lib/python3.12/site-packages/torch/_dynamo/external_utils.py, lines 67-69, in inner
    @functools.wraps(fn)
    def inner(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        return fn(*args, **kwargs)
