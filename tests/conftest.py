"""Every test starts eager (as `import tfe_compat` is) with no graph entered: a test that
switches to graph mode does not leak it into the next."""
import pytest

from tfe_compat.framework import context


@pytest.fixture(autouse=True)
def _eager_after_each_test():
  yield
  if not context.eager_default[0] or context.ctx.graph_stack:
    context.eager_default[0] = True
    context.ctx.graph_stack = []
    context.refresh_mode(context.ctx)
