# tests/style/: the house style and structure, checked by Python suites (tests/run.py). One host
# program: doc_facts prints what the docs state about the code (the command-line keys, the
# default suite's runs, the leak survey's measurements) as the code has it, for
# tests/style/test_doc_facts.py; it links the pure objects as a tool does.
DOC_FACTS := $(BUILD)/host/style/doc_facts
$(DOC_FACTS): $(BUILD)/tools/obj/tests/style/doc_facts.o $$(TOOL_PURE_OBJS)
	$(say) LD $@
	@mkdir -p $(@D)
	$(Q)$(CC) -o $@ $^
all: $(DOC_FACTS)
