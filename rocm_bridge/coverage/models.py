"""The bundled example models, built in code (tiny shapes, random weights, nothing downloaded).

Each builder takes the keras module and returns a built functional model. Sizes are kept small because only
the graph matters: op types and dtypes do not depend on layer widths.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Example:
    key: str
    title_key: str  # catalog key of its name
    build: Callable


def small_cnn(keras, dtype: str | None = None):
    from keras import layers

    inputs = keras.Input((16, 16, 3), name="image")
    x = layers.Conv2D(8, 3, padding="same", activation="relu", dtype=dtype)(inputs)
    x = layers.MaxPooling2D(dtype=dtype)(x)
    x = layers.Conv2D(8, 3, padding="same", activation="relu", dtype=dtype)(x)
    x = layers.GlobalAveragePooling2D(dtype=dtype)(x)
    x = layers.Dropout(0.2, dtype=dtype)(x)
    # The classifier head stays float32 under mixed precision, as Keras' guide recommends.
    outputs = layers.Dense(10, activation="softmax", dtype="float32")(x)
    return keras.Model(inputs, outputs, name="small_cnn")


def mixed_precision_cnn(keras):
    """The small CNN under the "mixed_bfloat16" policy: bfloat16 compute, float32 variables."""
    return small_cnn(keras, dtype="mixed_bfloat16")


def resnet_block(keras):
    from keras import layers

    inputs = keras.Input((16, 16, 8), name="features")
    x = layers.Conv2D(8, 3, padding="same", use_bias=False)(inputs)
    x = layers.BatchNormalization()(x)
    x = layers.Activation("relu")(x)
    x = layers.Conv2D(8, 3, padding="same", use_bias=False)(x)
    x = layers.BatchNormalization()(x)
    x = layers.Add()([x, inputs])  # the identity shortcut
    x = layers.Activation("relu")(x)
    x = layers.GlobalAveragePooling2D()(x)
    outputs = layers.Dense(10)(x)
    return keras.Model(inputs, outputs, name="resnet_block")


def transformer_block(keras):
    from keras import layers

    inputs = keras.Input((8, 16), name="tokens")  # (sequence length, model width)
    attn = layers.MultiHeadAttention(num_heads=2, key_dim=8)(inputs, inputs)
    x = layers.LayerNormalization()(layers.Add()([inputs, attn]))
    ff = layers.Dense(32, activation="gelu")(x)
    ff = layers.Dense(16)(ff)
    x = layers.LayerNormalization()(layers.Add()([x, ff]))
    outputs = layers.Dense(4)(layers.GlobalAveragePooling1D()(x))
    return keras.Model(inputs, outputs, name="transformer_block")


def lstm(keras):
    from keras import layers

    inputs = keras.Input((6, 4), name="sequence")  # (time steps, features)
    x = layers.LSTM(8)(inputs)
    outputs = layers.Dense(1)(x)
    return keras.Model(inputs, outputs, name="lstm")


EXAMPLES: dict[str, Example] = {
    e.key: e
    for e in (
        Example("small_cnn", "coverage.example.small_cnn", small_cnn),
        Example("resnet_block", "coverage.example.resnet_block", resnet_block),
        Example("transformer_block", "coverage.example.transformer_block", transformer_block),
        Example("lstm", "coverage.example.lstm", lstm),
        Example("cnn_mixed_bf16", "coverage.example.cnn_mixed_bf16", mixed_precision_cnn),
    )
}
