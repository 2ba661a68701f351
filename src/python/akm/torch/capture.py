"""The layer's input X and output gradient ∇Y, captured by hooks and reduced at backward to the
two sums of the deployed rule [eq:deployed, app:deployed]:

    G  = ∇Yᵀ X̂          (m×n)   the weight gradient with the normalized keys x̂ = x/‖x‖
    C  = M X̂ᵀ X̂         (m×n)   N·MΣ̂, the correction before its 1/N
    N  = number of rows of X     tokens: every leading dimension of X is flattened

so that the step forms M ← βM + η(G − C/N). With the token-mean loss L = (1/N)Σ ℓ_t the rows of
∇Y are δ_t/N and G is the paper's ΔᵀX̂/N; in general G scales with the loss exactly as the
weight gradient does.

A forward hook on the nn.Linear sees its input X and output Y; it keeps a reference to X (no
copy: autograd saves the same tensor for the weight gradient) and registers a hook on Y's
gradient, which adds the layer's (X, ∇Y) to the sums and then drops X, so no activation lives
longer than autograd keeps it. Gradient accumulation adds further backward passes into the same
sums (M is unchanged between steps, so the sums equal those of one large batch). The
correction is contracted in the cheaper order of eq:dispatch: M(X̂ᵀX̂) when n < 2m, else
(MX̂ᵀ)X̂, never an n×n matrix. Evaluation forwards (module.eval()) and forwards under
torch.no_grad() capture nothing.

The health of what was captured (finite X and ∇Y, no zero row of X, whose key x/‖x‖ is
undefined) is kept as 0-d tensors, read once at the step, so the backward pass never waits on
the device.
"""
import weakref

import torch


class LayerSums:
    """G, C and N of one weight matrix since the last step, and what the step must refuse."""

    def __init__(self, M):
        self.G = torch.zeros_like(M)
        self.C = torch.zeros_like(M)
        self.tokens = 0
        self.x_finite = torch.ones((), dtype=torch.bool, device=M.device)
        self.dy_finite = torch.ones((), dtype=torch.bool, device=M.device)
        self.no_zero_row = torch.ones((), dtype=torch.bool, device=M.device)
        self.reused_graph = False  # a second backward through one forward (retain_graph=True)

    @torch.no_grad()
    def add(self, M, x, dy):
        """Adds one forward's (X, ∇Y), any leading dimensions, with the buffer M before the step.

        The transient peak is the paper's (app:flops-memory, the factored and Gram tables):
        ‖x_t‖ (N), X̂ (N×n) and then X̂ᵀX̂ (n×n) or MX̂ᵀ (m×N), in M's precision; G and C
        accumulate in place. The health flags add no N×n or N×m tensor: they are read from row
        norms, max |·| for ∇Y and ‖·‖₂ for X (a NaN or inf entry makes its row's norm NaN or inf;
        so does a 2-norm that overflows, whose key x/‖x‖ would be 0)."""
        m, n = M.shape
        dY = dy.detach().reshape(-1, m)
        self.dy_finite &= torch.isfinite(torch.linalg.vector_norm(dY, ord=float("inf"), dim=1)).all()
        X = x.detach().reshape(-1, n)
        norms = torch.linalg.vector_norm(X, dim=1, keepdim=True, dtype=M.dtype)
        self.x_finite &= torch.isfinite(norms).all()
        self.no_zero_row &= (norms > 0).all()
        # The normalized key of each row [eq:dm-norm-update]; a converted copy is divided in place.
        Xhat = X / norms if X.dtype == M.dtype else X.to(M.dtype).div_(norms)
        self.G.addmm_(dY.T.to(M.dtype), Xhat)  # a converted ∇Y lives only for this product
        if n < 2 * m:  # Gram order [eq:dispatch]
            self.C.addmm_(M, Xhat.T @ Xhat)
        else:  # through-N order [eq:dispatch]
            self.C.addmm_(M @ Xhat.T, Xhat)
        self.tokens += X.shape[0]


def attach(module, optimizer):
    """Registers the capture on an nn.Linear for `optimizer` (held weakly: an optimizer that is
    dropped stops capturing); returns the hook's handle."""
    owner = weakref.ref(optimizer)

    def forward_hook(mod, inputs, output):
        opt = owner()
        if opt is None or not mod.training or not torch.is_grad_enabled():
            return
        weight = mod.weight
        if not (output.requires_grad and weight.requires_grad):
            return
        held = [inputs[0]]  # a reference to the input, not a copy

        def on_output_grad(dy):
            o = owner()
            if o is None:
                return
            if held[0] is None:  # the input was released after the first backward
                o._layer_sums(weight).reused_graph = True
                return
            o._layer_sums(weight).add(o.state[weight]["M"], held[0], dy)
            held[0] = None

        output.register_hook(on_output_grad)

    return module.register_forward_hook(forward_hook)
