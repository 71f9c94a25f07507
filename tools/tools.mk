# tools/: host programs. Each tool N is built as $(BUILD)/tools/N from tools/N/*.c and the pure
# objects; tools/N itself is a small wrapper that builds it when needed and runs it.
