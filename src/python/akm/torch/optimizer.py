"""AKOptimizer: what AK-SGD, AK-AdamW and AK-Muon share — the parameter groups (ak=True groups
take the deployed rule, ak=False groups the fallback), the capture hooks, the buffer step
[eq:deployed] and the refusals; each optimizer adds what it does with the buffer M. The Muon
baseline shares the groups and refusals without the hooks (_captures = False): its buffer is
formed from the ordinary gradient p.grad.

A step first checks everything it will use and raises ValueError, with no parameter or state
changed, on: a hyper-parameter out of range; an AK parameter that has a gradient but no captured
layer input (hooks removed, the forward ran in eval mode or under no_grad, or the gradient was
set by hand); NaN or inf in a captured input X, output gradient ∇Y or any gradient it would use;
a zero row of X (its key x/‖x‖ is undefined). Only then does it change anything.
"""
import torch

from . import capture, checks, groups

_NONFINITE_GRAD = "its gradient holds NaN or inf; must be finite"


class AKOptimizer(torch.optim.Optimizer):
    """Base class; see AKSGD, AKAdamW, AKMuon and Muon."""

    fallback = ""  # the fallback's name, as error messages and the docs give it
    _captures = True  # whether ak=True groups are hooked (False: the step reads p.grad only)

    def __init__(self, model, params, defaults, exclude=(), fallback_lr=None):
        if not isinstance(model, torch.nn.Module):
            raise ValueError(f"model = {type(model).__name__}: must be the torch.nn.Module whose "
                             f"linear layers the optimizer hooks")
        self._owners = groups.owners(model)
        self._names = groups.names(model)
        self._handles = {}  # hooked nn.Linear → its hook's handle
        self._pending = {}  # AK parameter → capture.LayerSums since the last step
        self._fallback_lr = fallback_lr  # the lr of ak=False groups that give none (None: lr)
        if params is None:
            params = groups.default_groups(model, self._owners, exclude)
        elif exclude:
            raise ValueError("exclude builds the default groups: with explicit param groups, put the "
                             "excluded parameters in a group with ak=False")
        super().__init__(params, defaults)

    # ---- groups -------------------------------------------------------------------------

    def add_param_group(self, param_group):
        group = dict(param_group) if isinstance(param_group, dict) else {"params": param_group}
        params = group["params"]
        group["params"] = [params] if isinstance(params, torch.Tensor) else list(params)
        group.setdefault("ak", True)
        if not group["ak"] and self._fallback_lr is not None:
            group.setdefault("lr", self._fallback_lr)
        for key, value in self.defaults.items():
            group.setdefault(key, value)
        i = len(self.param_groups)
        if not isinstance(group["ak"], bool):
            raise ValueError(f"ak = {group['ak']!r} in param group {i}: must be True or False")
        self._check_group(i, group, at_step=False)
        if group["ak"]:
            for p in group["params"]:
                groups.require_covered(p, self._owners, self._name(p), self.fallback)
        super().add_param_group(group)
        if group["ak"] and self._captures:
            for p in group["params"]:
                for mod in groups.linear_modules(p, self._owners):
                    if mod not in self._handles:
                        self._handles[mod] = capture.attach(mod, self)

    def _check_group(self, i, group, at_step):
        """Raises ValueError for a hyper-parameter of group i out of its range."""
        checks.learning_rate(group["lr"], i, at_step)
        self._check_hyper(i, group)

    def _check_hyper(self, i, group):
        raise NotImplementedError

    def _name(self, p):
        return self._names.get(p, f"<not in the model, shape {tuple(p.shape)}>")

    def remove_hooks(self):
        """Stops capturing: later steps refuse AK parameters that have a gradient."""
        for handle in self._handles.values():
            handle.remove()
        self._handles.clear()
        self._pending.clear()

    # ---- what the hooks call --------------------------------------------------------------

    def _layer_sums(self, p):
        """The sums of p since the last step (and p's state, made on first use)."""
        if not self.state[p]:
            self._init_state(p)
        sums = self._pending.get(p)
        if sums is None:
            sums = self._pending[p] = capture.LayerSums(self.state[p]["M"])
        return sums

    def _init_state(self, p):
        self.state[p]["M"] = torch.zeros_like(p, memory_format=torch.preserve_format)

    # ---- zero_grad, state_dict ------------------------------------------------------------

    def zero_grad(self, *args, **kwargs):
        """torch's zero_grad; the captured sums are discarded with the gradients."""
        super().zero_grad(*args, **kwargs)
        self._pending.clear()

    def load_state_dict(self, state_dict):
        saved = state_dict["param_groups"]
        if len(saved) == len(self.param_groups):
            for i, (s, g) in enumerate(zip(saved, self.param_groups)):
                if s.get("ak") != g["ak"]:
                    raise ValueError(f"ak = {s.get('ak')!r} in saved param group {i}: must be "
                                     f"{g['ak']}, as in this optimizer's group {i}")
                self._check_group(i, {**g, **{k: v for k, v in s.items() if k != "params"}}, at_step=True)
        super().load_state_dict(state_dict)

    # ---- the step -------------------------------------------------------------------------

    @torch.no_grad()
    def step(self, closure=None):
        """One step: the AK buffer [eq:deployed] and its update on every captured AK parameter,
        the fallback on every other parameter with a gradient. closure: re-evaluates the model
        (forward and backward) and returns the loss, as torch.optim's."""
        loss = None
        if closure is not None:
            with torch.enable_grad():
                loss = closure()
        ak_work, fallback_work = self._checked_work()
        for group, p, sums in ak_work:
            self._buffer_step(group, p, sums)
            self._apply(group, p)
        for group, params in fallback_work:
            self._fallback_step(group, params)
        self._pending.clear()
        return loss

    def _checked_work(self):
        """What the step will do, after every refusal: ([(group, p, sums)], [(group, params)])."""
        for i, group in enumerate(self.param_groups):
            self._check_group(i, group, at_step=True)
        ak_work, fallback_work, health = [], [], []
        for group in self.param_groups:
            if not group["ak"] or not self._captures:
                params = [p for p in group["params"] if p.grad is not None]
                health += [(self._name(p), _NONFINITE_GRAD, torch.isfinite(p.grad).all()) for p in params]
                if group["ak"]:
                    ak_work += [(group, p, None) for p in params]
                else:
                    fallback_work.append((group, params))
                continue
            for p in group["params"]:
                name, sums = self._name(p), self._pending.get(p)
                if sums is None:
                    if p.grad is None:
                        continue  # not used since the last step: skipped, as torch.optim does
                    raise ValueError(
                        f"parameter '{name}' has a gradient but no captured layer input: the step "
                        f"needs X and ∇Y of its nn.Linear [eq:deployed], and its forward ran in eval "
                        f"mode, under torch.no_grad(), with the hooks removed, or the gradient was "
                        f"set by hand; must be a training-mode forward with hooks attached (step "
                        f"refused, no parameter changed)")
                if sums.reused_graph:
                    raise ValueError(f"parameter '{name}': backward ran twice through one forward "
                                     f"(retain_graph=True), but the layer input is released after "
                                     f"its first backward; must be one backward per forward (step "
                                     f"refused, no parameter changed)")
                if self._needs_grad and p.grad is None:
                    raise ValueError(f"parameter '{name}' has a captured input but no gradient; "
                                     f"{type(self).__name__} needs both (step refused, no parameter "
                                     f"changed)")
                health += [(name, "the captured layer input X holds NaN or inf; must be finite, with "
                                  "finite row norms",
                            sums.x_finite),
                           (name, "the captured output gradient ∇Y holds NaN or inf; must be finite",
                            sums.dy_finite),
                           (name, "the captured layer input X has a row of norm 0, whose key x/‖x‖ "
                                  "is undefined [eq:deployed]; every row must be nonzero", sums.no_zero_row)]
                if self._needs_grad:
                    health.append((name, _NONFINITE_GRAD, torch.isfinite(p.grad).all()))
                ak_work.append((group, p, sums))
        self._refuse_unhealthy(health)
        return ak_work, fallback_work

    @staticmethod
    def _refuse_unhealthy(health):
        """One device sync for all flags; names the first failing one."""
        if not health:
            return
        device = health[0][2].device
        if bool(torch.stack([ok.to(device) for _, _, ok in health]).all()):
            return
        for name, problem, ok in health:
            if not bool(ok):
                raise ValueError(f"parameter '{name}': {problem} (step refused, no parameter changed)")

    _needs_grad = False  # whether _apply reads p.grad (AK-AdamW's second moment does)

    def _beta(self, group):
        """The buffer's decay β of the group."""
        return group["beta"]

    def _buffer_step(self, group, p, sums):
        """M ← βM + η(G − MΣ̂), G = ∇YᵀX̂, MΣ̂ = C/N [eq:deployed]."""
        M = self.state[p]["M"]
        M.mul_(self._beta(group)).add_(sums.G - sums.C / sums.tokens, alpha=group["eta"])

    def _apply(self, group, p):
        """The update of W from the new buffer M (each optimizer's own)."""
        raise NotImplementedError

    def _fallback_step(self, group, params):
        raise NotImplementedError
