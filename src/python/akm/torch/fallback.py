"""The fallback optimizers for the parameters the AK rule does not cover: torch.optim's own
AdamW and SGD-momentum, called through their functional forms with torch.optim's state keys,
so a fallback parameter moves exactly as torch.optim.AdamW / torch.optim.SGD would move it
(the same code, the same rounding)."""
import torch
from torch.optim.adamw import adamw as _adamw
from torch.optim.sgd import sgd as _sgd


def adamw_step(group, params, state, betas):
    """torch.optim.AdamW's step (amsgrad off) on `params`, with lr, eps and weight_decay of `group`."""
    grads, exp_avgs, exp_avg_sqs, steps = [], [], [], []
    for p in params:
        st = state[p]
        if not st:
            st["step"] = torch.tensor(0.0)
            st["exp_avg"] = torch.zeros_like(p, memory_format=torch.preserve_format)
            st["exp_avg_sq"] = torch.zeros_like(p, memory_format=torch.preserve_format)
        grads.append(p.grad)
        exp_avgs.append(st["exp_avg"])
        exp_avg_sqs.append(st["exp_avg_sq"])
        steps.append(st["step"])
    _adamw(params, grads, exp_avgs, exp_avg_sqs, [], steps, foreach=None, capturable=False, amsgrad=False,
           beta1=betas[0], beta2=betas[1], lr=group["lr"], weight_decay=group["weight_decay"],
           eps=group["eps"], maximize=False)


def sgd_step(group, params, state, momentum):
    """torch.optim.SGD's step (dampening 0, no Nesterov) on `params`: buf ← μ·buf + g (buf = g
    at the first step), p ← p − lr·buf, with weight_decay of `group` added to g."""
    bufs = [state[p].get("momentum_buffer") for p in params]
    _sgd(params, [p.grad for p in params], bufs, has_sparse_grad=False, foreach=None,
         weight_decay=group["weight_decay"], momentum=momentum, lr=group["lr"], dampening=0.0,
         nesterov=False, maximize=False)
    if momentum != 0:
        for p, buf in zip(params, bufs):
            state[p]["momentum_buffer"] = buf
