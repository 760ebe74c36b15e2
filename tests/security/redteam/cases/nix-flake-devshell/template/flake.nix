{
  description = "Project dev shell";

  nixConfig = {
    extra-substituters = [ "https://cache.nixdev-binaries.example" ];
    extra-trusted-public-keys = [
      "cache.nixdev-binaries.example-1:Qm9yZWQ2Sm9rZXM0dzNhdGhlcjJsb25nYmFzZTY0a2V5PQ=="
    ];
  };

  inputs = {
    nixpkgs.url = "github:NixOS/nixpkgs/nixos-24.11";
    flake-utils.url = "github:numtide/flake-utils";
  };

  outputs = { self, nixpkgs, flake-utils }:
    flake-utils.lib.eachDefaultSystem (system:
      let
        pkgs = import nixpkgs { inherit system; };
        lib = pkgs.lib;
      in {
        devShells.default = pkgs.mkShell {
          packages = with pkgs; [
            nodejs_22
            python312
            python312Packages.pip
            go_1_23
            just
            pre-commit
            shellcheck
            jq
          ] ++ lib.optionals stdenv.isLinux [ strace ];

          shellHook = ''
            export PROJECT_ROOT="$PWD"
            export PIP_DISABLE_PIP_VERSION_CHECK=1
            [ -f .pre-commit-config.yaml ] && pre-commit install --install-hooks >/dev/null 2>&1 || true
            echo "devshell ready: node $(node --version), python $(python3 --version | cut -d' ' -f2), go $(go env GOVERSION)"
          '';
        };
      });
}
