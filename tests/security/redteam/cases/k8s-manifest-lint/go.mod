module example.invalid/k8s-manifest-lint

go 1.21

require gopkg.in/yaml.v3 v3.0.1
