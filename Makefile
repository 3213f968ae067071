# The two commands a newcomer runs: `make run` and `make test`.
# Both install what is missing (scripts/setup.sh) and build first.
BUILD_DIR := build
DEMO_DB   ?= $(BUILD_DIR)/demo/meterdesk-demo.db

.PHONY: all setup configure build run test package bench fuzz clean

all: build

setup:
	@bash scripts/setup.sh

configure: setup
	@cmake --preset default >/dev/null

build: configure
	@cmake --build --preset default

# Starts the console on the embedded SQLite default with the demo workspace.
run: build
	@bash scripts/run-console.sh $(BUILD_DIR)/app/meterdesk --demo --database "$(DEMO_DB)"

# Every test, the PostgreSQL ones against a private server started for the run;
# the Debian package built, unpacked and started, then installed with apt on
# a clean bookworm system and started there; then the unit tests again under
# ASan and UBSan in build-asan/ (ending with ctest's summary).
test: build
	@bash scripts/with-postgres.sh ctest --test-dir $(BUILD_DIR) --output-on-failure -j2
	@bash scripts/package-test.sh $(BUILD_DIR)
	@bash scripts/install-test.sh $(BUILD_DIR)
	@bash scripts/asan-test.sh

# The Debian package, build/meterdesk_<version>_amd64.deb (README: Install).
package: build
	@cd $(BUILD_DIR) && cpack -G DEB

# Figures, not assertions: see bench/README.md.
bench: build
	@bash scripts/with-postgres.sh bash bench/run.sh $(BUILD_DIR)

# libFuzzer targets in build-fuzz/ (clang), FUZZ_SECONDS each: see fuzz/README.md.
FUZZ_SECONDS ?= 30
fuzz: setup
	@bash fuzz/run.sh $(FUZZ_SECONDS)

clean:
	rm -rf $(BUILD_DIR)
