/* Operations of this family: one NN_OP(NAME) line each (see registry.c). */
