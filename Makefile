# headroom: `make check` runs every test (root-only tests too when run as root, as CI is);
# `make bench` compares headroom with the physical floor and its peers; `make fuzz` runs each
# fuzz target briefly, `make fuzz-long` for a minute each; `make cross` builds the static
# release binaries.

GO        ?= go
PKGS      := ./...
FUZZTIME  ?= 8s
DIST      := dist
# Release targets: seed 000 is an ARMv5 NAS, seed 004 a 32-bit x86 server.
CROSS     := linux/amd64 linux/386 linux/arm/5 linux/arm64

.PHONY: all build vmkernels vmlab check fmt-check vet test accuracy cross fuzz fuzz-long bench clean deploy-check

all: build

# Static, as the release binaries below are (and as make bench measures serve).
# The revision and its commit time are linked in from git when there is one (the go command
# stamps no VCS data in a worktree or with -buildvcs=false), so `headroom --version` of a
# plain build names the commit it was built from; make release sets the version too.
REVISION    := $(shell git rev-parse HEAD 2>/dev/null)
COMMIT_TIME := $(shell git show -s --format=%cI HEAD 2>/dev/null)
BUILD_X     := $(if $(REVISION),-X headroom/internal/buildinfo.revision=$(REVISION) -X headroom/internal/buildinfo.commitTime=$(COMMIT_TIME))

build:
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags='-s -w $(BUILD_X)' -o $(DIST)/headroom ./cmd/headroom

# The kernels the QEMU lab boots (lab/vm): Debian's image packages and busybox-static, fetched
# with apt-get download and unpacked into $HEADROOM_VM_CACHE (default /var/cache/headroom/vm),
# never installed. Idempotent: a present kernel is not fetched again (about 1 s).
vmkernels: build
	$(DIST)/headroom lab kernels --fetch

# The guest scenarios of the kernel lab, each on its kernel (scenario:kernel). Exit status: the
# first scenario that did not hold.
VMLAB ?= readers:debian-6.1-amd64 drop-reasons:debian-6.1-amd64 readers:debian-6.1-686-pae lowmem-tcp:debian-6.1-686-pae atomic-rx-refill:debian-6.1-amd64

vmlab: vmkernels
	@set -e; for r in $(VMLAB); do s=$${r%%:*}; k=$${r#*:}; \
		echo "vmlab: headroom lab run $$s --kernel $$k"; \
		$(DIST)/headroom lab run $$s --kernel $$k; \
	done

# kernel.tainted is read before and after: a test that makes the kernel WARN (or worse) fails
# the check even when every test passed (.ci/taint-diff names the bits).
check:
	@t0=$$(cat /proc/sys/kernel/tainted 2>/dev/null || echo 0); \
	rc=0; $(MAKE) --no-print-directory fmt-check vet test accuracy cross || rc=$$?; \
	.ci/taint-diff $$t0 || rc=1; \
	exit $$rc

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet $(PKGS)

# -p 1 keeps the lab's namespace tests from competing for the 2 CPUs with other packages'
# tests, which would make their throughput thresholds flaky.
test:
	$(GO) test -count=1 -p 1 -timeout 40m $(PKGS)

# The Kubernetes manifests in deploy/, decoded strictly with Kubernetes' own API types (a
# module of its own, deploy/validate, so that headroom does not depend on k8s.io/api).
deploy-check:
	cd deploy/validate && $(GO) test -count=1 ./...

# Scores doctor on the labelled corpus of real pastes (testdata/corpus) and fails when a
# figure falls below testdata/corpus/accuracy-baseline.json; `make accuracy-update` raises it.
accuracy: build
	$(GO) run ./internal/accuracy -bin $(DIST)/headroom -q

accuracy-update: build
	$(GO) run ./internal/accuracy -bin $(DIST)/headroom -q -update

cross:
	@set -e; for t in $(CROSS); do \
		os=$${t%%/*}; rest=$${t#*/}; arch=$${rest%%/*}; arm=""; \
		case "$$rest" in */*) arm=$${rest#*/};; esac; \
		out=$(DIST)/headroom-$$os-$$arch$${arm:+v$$arm}; \
		echo "cross $$out"; \
		CGO_ENABLED=0 GOOS=$$os GOARCH=$$arch GOARM=$$arm $(GO) build -trimpath -ldflags='-s -w' -o $$out ./cmd/headroom; \
	done

# Every Fuzz target of every package, each for FUZZTIME (.ci/fuzz prints the executions of
# each and fails a target that crashed or executed fewer than 1000 inputs). fuzz-long runs
# each for FUZZLONG, the figures the release notes quote; FUZZPKGS and FUZZMATCH narrow
# either ("make fuzz-long FUZZPKGS=./kernel FUZZMATCH=ZoneInfo").
FUZZLONG ?= 60s

fuzz:
	GO=$(GO) .ci/fuzz $(FUZZTIME)

fuzz-long:
	GO=$(GO) .ci/fuzz $(FUZZLONG)

bench:
	$(GO) run ./internal/benchcmp

clean:
	rm -rf $(DIST)

# Static binaries (amd64, 386, arm64, armv5, armv7), tar.gz archives, .deb packages and
# SHA256SUMS in $(DIST)/release, versioned by git describe (.ci/release; lintian when
# installed). internal/release's test installs the amd64 .deb into a scratch root.
.PHONY: release
release:
	GO=$(GO) DIST=$(DIST) .ci/release
