print("bufprobe-bench: not built yet")
