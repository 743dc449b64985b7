/* Operations of this family: one NN_OP(NAME) line each (see registry.c). */
NN_OP(IF)
NN_OP(WHILE)
