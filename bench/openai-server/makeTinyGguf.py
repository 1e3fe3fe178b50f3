"""
Writes a small Llama-architecture GGUF with random weights and a made-up
SentencePiece-style vocabulary, so llama.cpp's server can be run with no
download. Needs numpy and llama.cpp's gguf-py on PYTHONPATH.

    python3 makeTinyGguf.py OUT.gguf [--embd 512 --layers 8 --ff 1536 --vocab 4096] [--fim]

Every token but the three controls is plain ASCII (byte-fallback tokens
only for 0x00-0x7F), so whatever the random model samples is valid UTF-8;
the prompts must be ASCII too.
"""
import argparse

import numpy as np
from gguf import GGUFWriter, GGMLQuantizationType, TokenType

p = argparse.ArgumentParser()
p.add_argument("out")
p.add_argument("--embd", type=int, default=512)
p.add_argument("--layers", type=int, default=8)
p.add_argument("--heads", type=int, default=8)
p.add_argument("--ff", type=int, default=1536)
p.add_argument("--vocab", type=int, default=4096)
p.add_argument("--ctx", type=int, default=4096)
# The last three tokens become fill-in-the-middle controls, so llama.cpp's /infill takes the model.
p.add_argument("--fim", action="store_true")
a = p.parse_args()

rng = np.random.default_rng(0)
tokens = ["<unk>", "<s>", "</s>"]
types = [TokenType.UNKNOWN, TokenType.CONTROL, TokenType.CONTROL]
for b in range(128):  # byte fallback, for newline and the like
    tokens.append(f"<0x{b:02X}>")
    types.append(TokenType.BYTE)
for c in range(32, 127):
    tokens.append("\u2581" if c == 32 else chr(c))
    types.append(TokenType.NORMAL)
letters = "etaoinshrdlucmfwypvbgkqjxz"
while len(tokens) < a.vocab:
    n = len(tokens)
    piece = "\u2581" + "".join(letters[(n * 7 + k * 13) % 26] for k in range(2 + n % 5))
    if piece not in tokens:
        tokens.append(piece)
        types.append(TokenType.NORMAL)
    else:
        tokens.append(f"\u2581w{n}")
        types.append(TokenType.NORMAL)
if a.fim:
    for k, name in enumerate(["<fim_prefix>", "<fim_suffix>", "<fim_middle>"]):
        tokens[len(tokens) - 3 + k] = name
        types[len(types) - 3 + k] = TokenType.CONTROL
scores = [0.0, 0.0, 0.0] + [-float(i) for i in range(len(tokens) - 3)]

w = GGUFWriter(a.out, "llama")
w.add_name("inkling-tiny-random")
w.add_context_length(a.ctx)
w.add_embedding_length(a.embd)
w.add_block_count(a.layers)
w.add_feed_forward_length(a.ff)
w.add_head_count(a.heads)
w.add_head_count_kv(a.heads)
w.add_rope_dimension_count(a.embd // a.heads)
w.add_layer_norm_rms_eps(1e-5)
w.add_vocab_size(len(tokens))
w.add_file_type(1)  # mostly F16
w.add_tokenizer_model("llama")
w.add_token_list(tokens)
w.add_token_scores(scores)
w.add_token_types(types)
w.add_bos_token_id(1)
w.add_eos_token_id(2)
w.add_unk_token_id(0)
w.add_add_bos_token(True)
w.add_add_eos_token(False)
if a.fim:
    w.add_uint32("tokenizer.ggml.fim_pre_token_id", len(tokens) - 3)
    w.add_uint32("tokenizer.ggml.fim_suf_token_id", len(tokens) - 2)
    w.add_uint32("tokenizer.ggml.fim_mid_token_id", len(tokens) - 1)
w.add_chat_template(
    "{% for m in messages %}<|{{ m['role'] }}|>\n{{ m['content'] }}\n{% endfor %}"
    "{% if add_generation_prompt %}<|assistant|>\n{% endif %}"
)


def mat(rows, cols):
    return (rng.standard_normal((rows, cols), dtype=np.float32) * 0.02).astype(np.float16)


def ones(n):
    return np.ones(n, dtype=np.float32)


V, E, F = len(tokens), a.embd, a.ff
w.add_tensor("token_embd.weight", mat(V, E))
w.add_tensor("output_norm.weight", ones(E))
w.add_tensor("output.weight", mat(V, E))
for i in range(a.layers):
    w.add_tensor(f"blk.{i}.attn_norm.weight", ones(E))
    w.add_tensor(f"blk.{i}.attn_q.weight", mat(E, E))
    w.add_tensor(f"blk.{i}.attn_k.weight", mat(E, E))
    w.add_tensor(f"blk.{i}.attn_v.weight", mat(E, E))
    w.add_tensor(f"blk.{i}.attn_output.weight", mat(E, E))
    w.add_tensor(f"blk.{i}.ffn_norm.weight", ones(E))
    w.add_tensor(f"blk.{i}.ffn_gate.weight", mat(F, E))
    w.add_tensor(f"blk.{i}.ffn_up.weight", mat(F, E))
    w.add_tensor(f"blk.{i}.ffn_down.weight", mat(E, F))
w.write_header_to_file()
w.write_kv_data_to_file()
w.write_tensors_to_file()
w.close()
print(f"wrote {a.out}: vocab {V}, embd {E}, layers {a.layers}, ff {F}")
