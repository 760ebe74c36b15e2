# frozen_string_literal: true

module RuboCop
  module Cop
    module Team
      # Flags `puts` / `p` calls in library and app code.
      class NoPutsInLib < Base
        MSG = "Use Rails.logger or a logger instead of `%<method>s`."
        RESTRICT_ON_SEND = %i[puts p].freeze

        def on_send(node)
          return if node.receiver

          add_offense(node, message: format(MSG, method: node.method_name))
        end
      end
    end
  end
end
