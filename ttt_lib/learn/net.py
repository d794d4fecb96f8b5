"""A small fully connected network in numpy, forward and backward written out.

``Network([18, 64, 64, 9], seed)`` has ReLU hidden layers and a linear output. ``forward``
keeps what ``backward`` needs; ``backward`` turns the gradient of the loss with respect to
the outputs into gradients of every weight (the chain rule, layer by layer, last first);
``step`` applies Adam. Weights start from numpy's ``default_rng(seed)`` (He initialisation),
so a seed gives the same network on every machine.
"""
from __future__ import annotations

import numpy as np


class Network:
    """Weights ``W[i]`` (fan_in x fan_out) and biases ``b[i]``, with Adam's running moments."""

    def __init__(self, sizes: list[int], seed: int = 0, rate: float = 1e-3) -> None:
        rng = np.random.default_rng(seed)
        self.sizes, self.rate = list(sizes), rate
        self.W = [rng.normal(0.0, np.sqrt(2.0 / m), (m, n)) for m, n in zip(sizes, sizes[1:])]
        self.b = [np.zeros(n) for n in sizes[1:]]
        self.moments = [np.zeros_like(p) for p in self.params() for _ in (0, 1)]
        self.steps = 0

    def params(self) -> list[np.ndarray]:
        return self.W + self.b

    def forward(self, x: np.ndarray) -> tuple[np.ndarray, list[np.ndarray]]:
        """The outputs for a batch of inputs, and each layer's input (for ``backward``)."""
        inputs = []
        for i, (W, b) in enumerate(zip(self.W, self.b)):
            inputs.append(x)
            x = x @ W + b
            if i < len(self.W) - 1:
                x = np.maximum(x, 0.0)
        return x, inputs

    def __call__(self, x: np.ndarray) -> np.ndarray:
        return self.forward(x)[0]

    def backward(self, inputs: list[np.ndarray], grad: np.ndarray) -> list[np.ndarray]:
        """Gradients of the loss for ``W`` then ``b``, given d(loss)/d(outputs)."""
        dW, db = [None] * len(self.W), [None] * len(self.b)
        for i in reversed(range(len(self.W))):
            dW[i] = inputs[i].T @ grad
            db[i] = grad.sum(axis=0)
            if i:
                grad = (grad @ self.W[i].T) * (inputs[i] > 0)  # through the ReLU below
        return dW + db

    def step(self, grads: list[np.ndarray], beta1: float = 0.9, beta2: float = 0.999) -> None:
        """One Adam update of every weight."""
        self.steps += 1
        t = self.steps
        for k, (p, g) in enumerate(zip(self.params(), grads)):
            m, v = self.moments[2 * k], self.moments[2 * k + 1]
            m *= beta1
            m += (1 - beta1) * g
            v *= beta2
            v += (1 - beta2) * g * g
            p -= self.rate * (m / (1 - beta1 ** t)) / (np.sqrt(v / (1 - beta2 ** t)) + 1e-8)

    def copy(self) -> "Network":
        """A frozen copy of the weights (a target network)."""
        twin = Network.__new__(Network)
        twin.sizes, twin.rate, twin.steps = self.sizes, self.rate, self.steps
        twin.W, twin.b = [w.copy() for w in self.W], [b.copy() for b in self.b]
        twin.moments = [m.copy() for m in self.moments]
        return twin

    def as_dict(self) -> dict:
        """The weights as plain lists, for a JSON file."""
        return {"sizes": self.sizes, "W": [w.tolist() for w in self.W],
                "b": [b.tolist() for b in self.b]}

    @classmethod
    def from_dict(cls, data: dict) -> "Network":
        """Rebuild from ``as_dict``'s output, checking every shape."""
        sizes = [int(n) for n in data["sizes"]]
        net = cls(sizes)
        try:
            W = [np.asarray(w, dtype=float) for w in data["W"]]
            b = [np.asarray(v, dtype=float) for v in data["b"]]
        except (TypeError, ValueError):
            raise ValueError("the weights are not tables of numbers") from None
        if [w.shape for w in W] != [w.shape for w in net.W] or \
                [v.shape for v in b] != [v.shape for v in net.b]:
            raise ValueError("the weights do not match the layer sizes")
        if not all(np.isfinite(p).all() for p in W + b):
            raise ValueError("the weights hold a value that is not a finite number")
        net.W, net.b = W, b
        return net
