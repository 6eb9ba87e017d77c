; Every method and constructor declaration with a body: the units jreach analyses.
(method_declaration
  name: (identifier) @name
  body: (block) @body) @method

(constructor_declaration
  name: (identifier) @name
  body: (constructor_body) @body) @method
